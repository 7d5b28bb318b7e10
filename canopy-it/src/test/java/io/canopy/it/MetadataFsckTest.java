package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.check.MetadataCheckReport;
import io.canopy.namenode.check.MetadataInvariants;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code canopy fsck}'s checks ({@link MetadataInvariants}) on a live cluster: a namespace of every kind of row (large,
 * small, open and empty files, a quota, attributes) is HEALTHY with its counts right; then each kind of damage written
 * straight into the tables is named by a problem line, and housekeeping left to the namenodes (a subtree flag of a
 * namenode gone) is a warning only.
 */
@Timeout(180)
class MetadataFsckTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(2).build();

  private static MetadataCheckReport check() throws IOException {
    return MetadataInvariants.check(CLUSTER.store(), System.currentTimeMillis(), 60_000);
  }

  private static long id(DistributedFileSystem fs, String path) throws IOException {
    return fs.getClient().getFileInfo(path).getFileId();
  }

  @Test
  void aSoundNamespaceIsHealthyAndEachDamageIsNamed() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem(0);
    fs.mkdirs(new Path("/fsck/quota/deep"));
    fs.setQuota(new Path("/fsck/quota"), 100, Long.MAX_VALUE);
    TestFiles.write(fs, new Path("/fsck/quota/deep/large"), TestFiles.randomBytes(2 * BLOCK_SIZE + 5, 1), BLOCK_SIZE);
    TestFiles.write(fs, new Path("/fsck/small"), TestFiles.randomBytes(700, 2), BLOCK_SIZE);
    TestFiles.write(fs, new Path("/fsck/empty"), new byte[0], BLOCK_SIZE);
    fs.setXAttr(new Path("/fsck/small"), "user.a", new byte[] {1});
    FSDataOutputStream open = fs.create(new Path("/fsck/open"), true, 4096, (short) 2, BLOCK_SIZE);
    open.write(TestFiles.randomBytes(10, 3));
    open.hflush();
    try {
      List<String> steps = new java.util.ArrayList<>();
      MetadataCheckReport report = MetadataInvariants.check(CLUSTER.store(), System.currentTimeMillis(), 60_000,
          steps::add);
      assertTrue(steps.contains("reading inodes") && steps.contains("reading directory_quotas"), steps.toString());
      assertEquals(List.of(), report.problems());
      assertEquals(List.of(), report.warnings());
      assertTrue(report.healthy());
      MetadataCheckReport.Counts counts = report.counts();
      assertEquals(4, counts.directories(), "/, /fsck, /fsck/quota, /fsck/quota/deep: " + counts);
      assertEquals(4, counts.files(), counts.toString());
      assertEquals(1, counts.openFiles(), counts.toString());
      assertEquals(1, counts.quotaDirectories(), counts.toString());
      assertTrue(counts.blocks() >= 3, "3 blocks of the large file, 1 of the open one: " + counts);
    } finally {
      open.close();
    }

    long large = id(fs, "/fsck/quota/deep/large");
    long deep = id(fs, "/fsck/quota/deep");
    long fsckDirectory = id(fs, "/fsck");
    long small = id(fs, "/fsck/small");
    MetadataStore store = CLUSTER.store();
    try (Transaction tx = store.begin()) {
      Block last = tx.blocks().ofFile(large).get(2);
      tx.blocks().update(new Block(last.inodeId(), last.blockId(), last.index(), last.numBytes() + 1,
          last.generationStamp(), last.state(), last.recoveryId(), last.truncateLength()));
      tx.replicas().insert(new Replica(large, 987_654_321L, "DS-no-such-storage", CorruptReason.NONE, 0));
      Inode directory = tx.inodes().getById(fsckDirectory, LockMode.EXCLUSIVE).orElseThrow();
      tx.inodes().update(directory.withSubtreeLockOwner(424_242));
      tx.inodes().delete(tx.inodes().getById(deep, LockMode.EXCLUSIVE).orElseThrow().key());
      tx.variables().putLong("next_id.inode", small);
      tx.commit();
    }
    MetadataCheckReport damaged = check();
    assertFalse(damaged.healthy());
    String problems = String.join("\n", damaged.problems());
    for (String expected : new String[] {
        "closed file /<missing " + deep + ">/large (inode " + large + ") has size",
        "replicas row (inode " + large + ", block 987654321, storage DS-no-such-storage) names a block no file holds",
        "/fsck (inode " + fsckDirectory + ") is flagged by namenode 424242 without a subtree_operations row",
        "orphan: the parent " + deep + " of inode " + large,
        "directory /fsck/quota (inode " + id(fs, "/fsck/quota") + ") has children_count 1 but 0 children",
        "the quota usage of /fsck/quota",
        "the id counter next_id.inode is " + small + ", but inode id"}) {
      assertTrue(problems.contains(expected), "expected a problem '" + expected + "' in:\n" + problems);
    }

    // a subtree operation of a namenode that is gone: the next operation meeting it clears it, so a warning only
    try (Transaction tx = store.begin()) {
      long root = id(fs, "/fsck/quota");
      tx.subtreeOperations().put(new SubtreeOperation(root, 424_242, "delete", "/fsck/quota", 1));
      tx.inodes().update(tx.inodes().getById(root, LockMode.EXCLUSIVE).orElseThrow().withSubtreeLockOwner(424_242));
      tx.commit();
    }
    MetadataCheckReport warned = check();
    assertTrue(String.join("\n", warned.warnings()).contains("belongs to namenode 424242, no longer in the group"),
        warned.warnings().toString());
  }
}
