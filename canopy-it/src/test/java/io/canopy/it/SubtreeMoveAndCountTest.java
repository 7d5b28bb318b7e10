package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.Transaction;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The other calls whose work grows with a subtree (design 017), with a threshold of 40 inodes and batches of 16: a
 * first quota and a move between quota directories take the subtree protocol (flag, quiesce counting the storage
 * space, one last transaction on the directory) and charge exactly what a single transaction would have counted; a
 * content summary and a quota usage are counted in read-only batches that check every directory's access. No flag or
 * running operation is left behind, whatever the outcome.
 */
@Timeout(300)
class SubtreeMoveAndCountTest {
  private static final long THRESHOLD = 40;
  private static final int BATCH = 16;
  private static final int BLOCK_SIZE = 1024;
  private static final long BIG = 1L << 40;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> {
        conf.setLong(NameNodeConfig.SUBTREE_PROTOCOL_THRESHOLD, THRESHOLD);
        conf.setInt(NameNodeConfig.SUBTREE_BATCH_SIZE, BATCH);
        conf.setInt(NameNodeConfig.SUBTREE_THREADS, 3);
        conf.setLong(NameNodeConfig.SUBTREE_WAIT_MS, 400);
      }).dataNodes(1).build();

  /** What a test tree holds: inodes (its top directory included) and storage space, with replication 1. */
  private record Tree(long inodes, long directories, long files, long length) {
  }

  /**
   * Under {@code root}: 3 directories of 3 directories of 8 empty files, and 3 files of data (1 KB blocks, one
   * replica) whose lengths differ.
   */
  private static Tree tree(DistributedFileSystem fs, String root) throws IOException {
    long directories = 1;
    long files = 0;
    long length = 0;
    for (int d = 0; d < 3; d++) {
      directories++;
      for (int s = 0; s < 3; s++) {
        String dir = root + "/d" + d + "/s" + s;
        assertTrue(fs.mkdirs(path(dir)));
        directories++;
        for (int f = 0; f < 8; f++) {
          fs.create(path(dir + "/f" + f)).close();
          files++;
        }
      }
      int size = BLOCK_SIZE + 100 * (d + 1);
      TestFiles.write(fs, path(root + "/d" + d + "/data"), TestFiles.randomBytes(size, d), (short) 1, BLOCK_SIZE);
      files++;
      length += size;
    }
    return new Tree(directories + files, directories, files, length);
  }

  private static long operations(String name) {
    Map<String, OperationMetrics.Snapshot> all = CLUSTER.cluster().nameNode(0).runner().metrics().snapshot();
    return all.getOrDefault(name, OperationMetrics.Snapshot.ZERO).operations();
  }

  private static void assertClean() throws IOException {
    HeldSubtrees.assertClean(CLUSTER.store());
  }

  @Test
  void aFirstQuotaOnALargeDirectoryIsCountedThroughTheProtocol() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    Tree tree = tree(fs, "/first/big");
    // an open file counts a whole preferred block, as in HDFS
    FSDataOutputStream open = fs.create(path("/first/big/d0/s0/open"), true, 4096, (short) 1, BLOCK_SIZE);
    open.write(new byte[100]);
    open.hflush();
    long quiesced = operations("subtreeQuiesce");
    long locks = operations("subtreeLock");

    fs.setQuota(path("/first/big"), 10_000, BIG);

    assertEquals(locks + 1, operations("subtreeLock"), "the quota took the subtree protocol");
    assertTrue(operations("subtreeQuiesce") - quiesced >= tree.inodes() / BATCH, "quiesced " + BATCH + " at a time");
    QuotaUsage usage = fs.getQuotaUsage(path("/first/big"));
    assertEquals(tree.inodes() + 1, usage.getFileAndDirectoryCount());
    assertEquals(tree.length() + BLOCK_SIZE, usage.getSpaceConsumed());
    assertEquals(10_000, usage.getQuota());
    ContentSummary summary = fs.getContentSummary(path("/first/big"));
    assertEquals(usage.getFileAndDirectoryCount(), summary.getFileAndDirectoryCount(),
        "the quota's count and a content summary's batches agree");
    assertEquals(usage.getSpaceConsumed(), summary.getSpaceConsumed());
    assertClean();

    // the new row is charged from now on
    fs.create(path("/first/big/after")).close();
    assertEquals(tree.inodes() + 2, fs.getQuotaUsage(path("/first/big")).getFileAndDirectoryCount());
    open.close();
    assertClean();
    // the root is never held: its first quota counts the namespace in one transaction
    fs.setQuota(path("/"), 1_000_000, HdfsConstants.QUOTA_DONT_SET);
    assertTrue(fs.getQuotaUsage(path("/")).getFileAndDirectoryCount() > THRESHOLD);
    assertClean();
    fs.setQuota(path("/"), HdfsConstants.QUOTA_RESET, HdfsConstants.QUOTA_DONT_SET);
    assertTrue(fs.delete(path("/first"), true));
    assertClean();
  }

  @Test
  void aLargeMoveBetweenQuotaDirectoriesCarriesItsUsage() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    assertTrue(fs.mkdirs(path("/moves/a")));
    assertTrue(fs.mkdirs(path("/moves/b")));
    fs.setQuota(path("/moves/a"), 10_000, BIG);
    fs.setQuota(path("/moves/b"), 10_000, BIG);
    Tree tree = tree(fs, "/moves/a/big");
    long locks = operations("subtreeLock");

    assertTrue(fs.rename(path("/moves/a/big"), path("/moves/b/big")));

    assertEquals(locks + 1, operations("subtreeLock"), "the move took the subtree protocol");
    assertEquals(1, fs.getQuotaUsage(path("/moves/a")).getFileAndDirectoryCount());
    assertEquals(0, fs.getQuotaUsage(path("/moves/a")).getSpaceConsumed());
    assertEquals(1 + tree.inodes(), fs.getQuotaUsage(path("/moves/b")).getFileAndDirectoryCount());
    assertEquals(tree.length(), fs.getQuotaUsage(path("/moves/b")).getSpaceConsumed());
    assertClean();

    // rename2 the same way, out of any quota directory
    fs.rename(path("/moves/b/big"), path("/moves/back"), Options.Rename.NONE);
    assertEquals(locks + 2, operations("subtreeLock"));
    assertEquals(1, fs.getQuotaUsage(path("/moves/b")).getFileAndDirectoryCount());
    assertEquals(0, fs.getQuotaUsage(path("/moves/b")).getSpaceConsumed());
    assertEquals(tree.inodes(), fs.getContentSummary(path("/moves/back")).getFileAndDirectoryCount());
    assertClean();

    // a move that stays under the same quota directories counts nothing: no protocol
    fs.setQuota(path("/moves"), 10_000, BIG); // its first quota: counted through the protocol
    assertEquals(locks + 3, operations("subtreeLock"));
    assertTrue(fs.rename(path("/moves/back"), path("/moves/again")));
    assertEquals(locks + 3, operations("subtreeLock"));
    assertEquals(1 + tree.inodes() + 2, fs.getQuotaUsage(path("/moves")).getFileAndDirectoryCount());
    assertTrue(fs.delete(path("/moves"), true));
    assertClean();
  }

  @Test
  void aLargeMoveIntoTooSmallAQuotaIsRefusedAndLeavesNoFlag() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    assertTrue(fs.mkdirs(path("/small/quota")));
    fs.setQuota(path("/small/quota"), 10, BIG);
    Tree tree = tree(fs, "/small/big");
    long locks = operations("subtreeLock");

    assertThrows(NSQuotaExceededException.class,
        () -> fs.rename(path("/small/big"), path("/small/quota/big"), Options.Rename.NONE));

    assertEquals(locks + 1, operations("subtreeLock"), "the move took the subtree protocol");
    assertTrue(fs.exists(path("/small/big")), "nothing moved");
    assertEquals(tree.inodes(), fs.getContentSummary(path("/small/big")).getFileAndDirectoryCount());
    assertEquals(1, fs.getQuotaUsage(path("/small/quota")).getFileAndDirectoryCount());
    assertClean();
    // and the directory is free for the next operation
    assertTrue(fs.delete(path("/small"), true));
    assertClean();
  }

  @Test
  void aLargeContentSummaryIsCountedInBatchesAndChecksEveryDirectory() throws Exception {
    DistributedFileSystem superuser = CLUSTER.fileSystem();
    superuser.mkdirs(path("/counted"));
    superuser.setPermission(path("/counted"), new FsPermission((short) 0777));
    DistributedFileSystem alice = CLUSTER.users().as("alice", "alice");
    DistributedFileSystem bob = CLUSTER.users().as("bob", "bob");
    Tree tree = tree(alice, "/counted/big");
    long counted = operations("getContentSummary");

    ContentSummary summary = alice.getContentSummary(path("/counted/big"));

    assertTrue(operations("getContentSummary") - counted >= tree.inodes() / BATCH,
        "counted " + BATCH + " at a time: " + (operations("getContentSummary") - counted) + " transactions");
    assertEquals(tree.directories(), summary.getDirectoryCount());
    assertEquals(tree.files(), summary.getFileCount());
    assertEquals(tree.length(), summary.getLength());
    assertEquals(tree.length(), summary.getSpaceConsumed());
    QuotaUsage usage = alice.getQuotaUsage(path("/counted/big"));
    assertEquals(tree.inodes(), usage.getFileAndDirectoryCount());
    assertEquals(tree.length(), usage.getSpaceConsumed());
    assertEquals(-1, usage.getQuota());

    // a directory deep inside that alice may not read refuses her the whole count, as in HDFS
    alice.setPermission(path("/counted/big/d2/s2"), new FsPermission((short) 0777));
    bob.mkdirs(path("/counted/big/d2/s2/bobs"));
    bob.setPermission(path("/counted/big/d2/s2/bobs"), new FsPermission((short) 0700));
    assertThrows(AccessControlException.class, () -> alice.getContentSummary(path("/counted/big")));
    assertThrows(AccessControlException.class, () -> alice.getQuotaUsage(path("/counted/big")));
    assertEquals(tree.inodes() + 1, superuser.getContentSummary(path("/counted/big")).getFileAndDirectoryCount());
    long before = operations("getContentSummary");
    assertTrue(superuser.getContentSummary(path("/counted/big/d0")).getFileAndDirectoryCount() <= THRESHOLD);
    assertEquals(before + 1, operations("getContentSummary"), "a small subtree is still counted in one transaction");
    assertTrue(superuser.delete(path("/counted"), true));
    assertClean();
  }

  /**
   * A file open inside a directory getting its first quota grows by a block (an addBlock by file id, which no flag
   * stops) after the quiesce phase counted it and before the quota is set (the quiesce waits meanwhile for a
   * transaction holding a lock elsewhere in the tree): the quota's last transaction reads the open file again, so its
   * usage is exact.
   */
  @Test
  void aFileThatGrowsWhileItsDirectoryIsHeldIsCountedAsItIsAtTheEnd() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    Tree tree = tree(fs, "/growing/big");
    // right under the directory: the quiesce phase's first transaction, which commits before any other starts, locks
    // it; the inode locked below is read in a later round
    FSDataOutputStream open = fs.create(path("/growing/big/open"), true, 4096, (short) 1, BLOCK_SIZE);
    open.write(new byte[100]);
    open.hflush();
    long blocker = fs.getClient().getFileInfo("/growing/big/d2/s2/f7").getFileId();
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      Future<Void> quota;
      long quiesced = operations("subtreeQuiesce");
      try (Transaction running = CLUSTER.store().begin()) {
        running.inodes().getById(blocker, LockMode.EXCLUSIVE).orElseThrow();
        quota = client.submit(() -> {
          fs.setQuota(path("/growing/big"), 10_000, BIG);
          return null;
        });
        Await.until("the quota flags the tree", Duration.ofSeconds(30),
            () -> HeldSubtrees.flagged(CLUSTER.store()).equals(List.of("big")));
        // the first quiesce transaction, which locked the open file, committed; a later one waits at the locked inode
        Await.until("the quiesce phase passes the open file", Duration.ofSeconds(30),
            () -> operations("subtreeQuiesce") > quiesced);
        open.write(new byte[BLOCK_SIZE]);
        open.hflush(); // a second block, through addBlock by file id
        assertFalse(quota.isDone(), "the quiesce phase still waits");
        running.rollback();
      }
      quota.get(60, TimeUnit.SECONDS);
    } finally {
      client.shutdownNow();
    }
    QuotaUsage usage = fs.getQuotaUsage(path("/growing/big"));
    // the first block charged its length when committed, the second a whole preferred block while written
    assertEquals(tree.length() + 2L * BLOCK_SIZE, usage.getSpaceConsumed());
    assertClean();
    open.close();
    assertClean();
    assertTrue(fs.delete(path("/growing"), true));
    assertClean();
  }
}
