package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A recursive delete of 100,100 inodes (100 directories of 1,000 one-block files with three replicas each, written
 * through the data-access layer: a client would take minutes) through the subtree protocol (design 017) at its
 * default batch of 1,000: it finishes, the namenode never holds more than a few batches of rows at once, the work is
 * spread over transactions of a batch each, and the namespace is consistent afterwards; a rename of as many moves
 * its root only; a first quota, a content summary and a move between quota directories count them in batches.
 */
@Timeout(600)
class SubtreeDeleteScaleTest {
  private static final int DIRECTORIES = 100;
  private static final int FILES = 1_000;
  private static final short REPLICATION = 3;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(0).build();

  private static long operations(NameNode nameNode, String name) {
    return nameNode.runner().metrics().snapshot().getOrDefault(name, OperationMetrics.Snapshot.ZERO).operations();
  }

  /** FILES closed one-block files in the directory {@code directoryId}, in one transaction. */
  private static void files(MetadataStore store, long directoryId) throws IOException {
    long inode = store.allocateIds(IdKind.INODE, FILES).first();
    long block = store.allocateIds(IdKind.BLOCK, FILES).first();
    long stamp = store.allocateIds(IdKind.GENERATION_STAMP, 1).first(); // the counters stay ahead (canopy fsck)
    long now = System.currentTimeMillis();
    try (Transaction tx = store.begin()) {
      Inode directory = tx.inodes().getById(directoryId, LockMode.EXCLUSIVE).orElseThrow();
      for (int i = 0; i < FILES; i++) {
        tx.inodes().insert(Inode.builder().id(inode + i).partitionId(directoryId).parentId(directoryId)
            .name("f" + i).permission((short) 0644).owner(directory.owner()).group(directory.group())
            .modificationTime(now).accessTime(now).size(1024).replication(REPLICATION)
            .preferredBlockSize(128L * 1024 * 1024).build());
        tx.blocks().insert(new Block(inode + i, block + i, 0, 1024, stamp, BlockState.COMPLETE));
        tx.blockLookup().insert(block + i, inode + i);
        for (int r = 1; r <= REPLICATION; r++) {
          tx.replicas().insert(new Replica(inode + i, block + i, "DS-scale-" + r));
        }
      }
      tx.inodes().update(directory.withChildrenCount(FILES));
      tx.commit();
    }
  }

  /** DIRECTORIES directories of FILES files under {@code root}; answers the inodes, the root included. */
  private static long tree(DistributedFileSystem fs, MetadataStore store, String root) throws IOException {
    long started = System.nanoTime();
    for (int d = 0; d < DIRECTORIES; d++) {
      String directory = root + "/d" + d;
      assertTrue(fs.mkdirs(path(directory)));
      files(store, fs.getClient().getFileInfo(directory).getFileId());
    }
    long inodes = (long) DIRECTORIES * (FILES + 1) + 1;
    System.out.printf("built %d inodes in %.1f s%n", inodes, (System.nanoTime() - started) / 1e9);
    return inodes;
  }

  /**
   * A rename of a directory with 100,100 descendants changes its own row only (and its parents'): the statements it
   * sends do not grow with the subtree (HopsFS's move: only the subtree's root is updated).
   */
  @Test
  void aRenameOfAHundredThousandDescendantsTouchesItsRootOnly() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    assertTrue(fs.mkdirs(path("/moves/to")));
    tree(fs, CLUSTER.store(), "/moves/from/big");
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    OperationMetrics.Snapshot before = nameNode.runner().metrics().snapshot()
        .getOrDefault("rename", OperationMetrics.Snapshot.ZERO);
    assertTrue(fs.rename(path("/moves/from/big"), path("/moves/to/big")));
    OperationMetrics.Snapshot rename = nameNode.runner().metrics().snapshot().get("rename").minus(before);
    assertEquals(1, rename.operations());
    assertTrue(rename.statements() <= 20, rename.statements() + " statements for a rename of 100,100 inodes");
    assertTrue(fs.exists(path("/moves/to/big/d99/f999")), "the subtree moved with its root");
    assertTrue(fs.delete(path("/moves"), true));
  }

  /**
   * A first quota on a directory of 100,100 inodes, a content summary of it and its move between quota directories
   * go through the subtree protocol or read-only batches: each counts the whole subtree exactly while the namenode
   * holds a bounded number of rows.
   */
  @Test
  void aQuotaACountAndAMoveOfAHundredThousandInodesRunInBoundedBatches() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    long inodes = tree(fs, CLUSTER.store(), "/counted/from/big");
    assertTrue(fs.mkdirs(path("/counted/to")));
    fs.setQuota(path("/counted/to"), 1_000_000, HdfsConstants.QUOTA_DONT_SET);
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    long locks = operations(nameNode, "subtreeLock");
    long space = (long) DIRECTORIES * FILES * 1024 * REPLICATION;

    long started = System.nanoTime();
    fs.setQuota(path("/counted/from/big"), 1_000_000, HdfsConstants.QUOTA_DONT_SET);
    double quota = (System.nanoTime() - started) / 1e9;
    QuotaUsage usage = fs.getQuotaUsage(path("/counted/from/big"));
    assertEquals(inodes, usage.getFileAndDirectoryCount());
    assertEquals(space, usage.getSpaceConsumed());

    started = System.nanoTime();
    ContentSummary summary = fs.getContentSummary(path("/counted/from/big"));
    double counted = (System.nanoTime() - started) / 1e9;
    assertEquals(DIRECTORIES + 1, summary.getDirectoryCount());
    assertEquals((long) DIRECTORIES * FILES, summary.getFileCount());
    assertEquals(space, summary.getSpaceConsumed());

    started = System.nanoTime();
    assertTrue(fs.rename(path("/counted/from/big"), path("/counted/to/big")));
    double moved = (System.nanoTime() - started) / 1e9;
    assertEquals(1 + inodes, fs.getQuotaUsage(path("/counted/to")).getFileAndDirectoryCount());
    assertEquals(space, fs.getQuotaUsage(path("/counted/to")).getSpaceConsumed());
    assertEquals(locks + 2, operations(nameNode, "subtreeLock"), "the quota and the move took the protocol");
    long peak = nameNode.runner().subtreeRows().peak();
    System.out.printf("%d inodes: first quota %.1f s, content summary %.1f s, move between quotas %.1f s; at most %d "
        + "subtree rows held at once%n", inodes, quota, counted, moved, peak);
    long bound = (long) NameNodeConfig.SUBTREE_THREADS_DEFAULT * NameNodeConfig.SUBTREE_BATCH_SIZE_DEFAULT
        * (1 + 1 + REPLICATION);
    assertTrue(peak <= bound, "the namenode held " + peak + " subtree rows at once, more than " + bound);
    assertEquals(java.util.List.of(), NamespaceInvariants.violations(CLUSTER.store()));
    assertTrue(fs.delete(path("/counted"), true));
  }

  @Test
  void aDeleteOfAHundredThousandInodesRunsInBoundedBatches() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    MetadataStore store = CLUSTER.store();
    long inodes = tree(fs, store, "/scale/root");
    // counted in SQL: a content summary would hold every row, which the peak below must not see
    assertEquals(inodes + 2, StoreQueries.count(store, "SELECT count(*) FROM inodes"), "the tree, /scale and /");
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    long batches = operations(nameNode, "subtreeDeleteBatch");

    long started = System.nanoTime();
    assertTrue(fs.delete(path("/scale/root"), true));
    double seconds = (System.nanoTime() - started) / 1e9;

    assertFalse(fs.exists(path("/scale/root")));
    long transactions = operations(nameNode, "subtreeDeleteBatch") - batches;
    long peak = nameNode.runner().subtreeRows().peak();
    System.out.printf("deleted %d inodes in %.1f s: %d delete transactions, at most %d subtree rows held at once%n",
        inodes, seconds, transactions, peak);
    int batch = NameNodeConfig.SUBTREE_BATCH_SIZE_DEFAULT;
    assertTrue(transactions >= inodes / batch, transactions + " delete transactions for " + inodes + " inodes");
    // each of the protocol's parallel transactions holds at most a batch of files with their blocks and replicas
    long bound = (long) NameNodeConfig.SUBTREE_THREADS_DEFAULT * batch * (1 + 1 + REPLICATION);
    assertTrue(peak <= bound, "the namenode held " + peak + " subtree rows at once, more than " + bound);
    assertEquals(0, StoreQueries.count(store, "SELECT count(*) FROM blocks"), "no block left");
    assertEquals(0, StoreQueries.count(store, "SELECT count(*) FROM replicas"), "no replica left");
    assertEquals(java.util.List.of(), NamespaceInvariants.violations(store));
  }
}
