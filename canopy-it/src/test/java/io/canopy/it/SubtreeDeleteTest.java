package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.ops.SubtreeDeleteBatchOp;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Recursive deletes of directories larger than one transaction takes (design 017), here with a threshold of 40 inodes
 * and batches of 16: the directory is flagged, quiesced and deleted bottom-up in batches, leaving the namespace,
 * quotas and datanodes as a single-transaction delete would; operations meeting a flag wait for it, or ignore it
 * once its namenode is dead (and the next delete takes it over); a subtree operation waits for one running below it;
 * a refused access deletes nothing.
 */
@Timeout(300)
class SubtreeDeleteTest {
  private static final long THRESHOLD = 40;
  private static final int BATCH = 16;
  private static final long WAIT_MS = 400;
  /** A namenode id no namenode of the cluster has: a dead one. */
  private static final long DEAD_NAMENODE = 999_999;
  private static final int BLOCK_SIZE = 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> {
        conf.setLong(NameNodeConfig.SUBTREE_PROTOCOL_THRESHOLD, THRESHOLD);
        conf.setInt(NameNodeConfig.SUBTREE_BATCH_SIZE, BATCH);
        conf.setInt(NameNodeConfig.SUBTREE_THREADS, 3);
        conf.setLong(NameNodeConfig.SUBTREE_WAIT_MS, WAIT_MS);
      }).dataNodes(1).build();

  private static NameNode nameNode() {
    return CLUSTER.cluster().nameNode(0);
  }

  /** {@code dirs} directories under {@code root}, each with {@code subdirs} directories of {@code files} empty files. */
  private static int tree(DistributedFileSystem fs, String root, int dirs, int subdirs, int files) throws IOException {
    int inodes = 1;
    for (int d = 0; d < dirs; d++) {
      for (int s = 0; s < subdirs; s++) {
        String dir = root + "/d" + d + "/s" + s;
        assertTrue(fs.mkdirs(path(dir)));
        for (int f = 0; f < files; f++) {
          fs.create(path(dir + "/f" + f)).close();
        }
        inodes += 1 + files;
      }
      inodes++;
    }
    return inodes;
  }

  private static long operations(String name) {
    Map<String, OperationMetrics.Snapshot> all = nameNode().runner().metrics().snapshot();
    return all.getOrDefault(name, OperationMetrics.Snapshot.ZERO).operations();
  }

  private static List<SubtreeOperation> running() throws IOException {
    return HeldSubtrees.running(CLUSTER.store());
  }

  private static long idOf(String path) throws IOException {
    return CLUSTER.fileSystem().getClient().getFileInfo(path).getFileId();
  }

  private static void hold(long id, String path, long owner) throws IOException {
    HeldSubtrees.hold(CLUSTER.store(), id, path, owner, System.currentTimeMillis());
  }

  private static List<String> flagged() throws IOException {
    return HeldSubtrees.flagged(CLUSTER.store());
  }

  private static void assertClean() throws IOException {
    HeldSubtrees.assertClean(CLUSTER.store());
  }

  @Test
  void aLargeDeleteRunsInBatchesAndLeavesWhatASingleTransactionWould() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    assertTrue(fs.mkdirs(path("/quota")));
    fs.setQuota(path("/quota"), 10_000, 10L * 1024 * 1024 * 1024);
    QuotaUsage before = fs.getQuotaUsage(path("/quota"));
    int inodes = tree(fs, "/quota/big", 3, 3, 10);
    List<LocatedBlock> blocks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Path file = path("/quota/big/d" + i + "/data");
      TestFiles.write(fs, file, TestFiles.randomBytes(BLOCK_SIZE + 100, i), (short) 1, BLOCK_SIZE);
      blocks.addAll(fs.getClient().getLocatedBlocks(file.toString(), 0).getLocatedBlocks());
      inodes++;
    }
    fs.setXAttr(path("/quota/big/d0/s0/f0"), "user.tag", "x".getBytes(StandardCharsets.UTF_8));
    fs.mkdirs(path("/quota/big/d1/nested"));
    fs.setQuota(path("/quota/big/d1/nested"), 100, 1024 * 1024);
    fs.create(path("/quota/big/d1/nested/inside")).close();
    inodes += 2;
    FSDataOutputStream open = fs.create(path("/quota/big/d2/open"));
    open.write(new byte[10]);
    open.hflush();
    inodes++;
    assertEquals(inodes, fs.getContentSummary(path("/quota/big")).getFileAndDirectoryCount());
    long batches = operations("subtreeDeleteBatch");
    long quiesced = operations("subtreeQuiesce");
    long locks = operations("subtreeLock");

    assertTrue(fs.delete(path("/quota/big"), true));

    assertFalse(fs.exists(path("/quota/big")));
    assertEquals(locks + 1, operations("subtreeLock"), "one subtree operation");
    assertTrue(operations("subtreeQuiesce") - quiesced >= (inodes - 1) / BATCH, "quiesced " + BATCH + " at a time");
    assertTrue(operations("subtreeDeleteBatch") - batches >= (inodes - 1) / BATCH, "deleted " + BATCH + " at a time");
    QuotaUsage after = fs.getQuotaUsage(path("/quota"));
    assertEquals(before.getFileAndDirectoryCount(), after.getFileAndDirectoryCount(), "usage given back");
    assertEquals(before.getSpaceConsumed(), after.getSpaceConsumed(), "storage space given back");
    assertClean();
    assertThrows(IOException.class, open::close, "the open file went with its directory");
    Await.until("the deleted files' replicas leave the datanode", Duration.ofSeconds(30), () -> {
      for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
        for (LocatedBlock block : blocks) {
          if (dataNode.getFSDataset().contains(block.getBlock())) {
            return false;
          }
        }
      }
      return true;
    });
  }

  @Test
  void operationsMeetingAHeldDirectoryWaitForItAndIgnoreADeadNamenodesFlag() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    fs.mkdirs(path("/held/a"));
    fs.create(path("/held/a/f")).close();
    long held = idOf("/held");
    hold(held, "/held", nameNode().election().selfId());
    long started = System.nanoTime();
    IOException waited = assertThrows(IOException.class, () -> fs.getFileStatus(path("/held/a/f")));
    assertTrue(waited.getMessage().contains("/held is held by a subtree operation of namenode"), waited.getMessage());
    assertTrue(System.nanoTime() - started >= Duration.ofMillis(WAIT_MS).toNanos(), "it waited first");
    assertThrows(IOException.class, () -> fs.create(path("/held/a/g")).close());
    assertThrows(IOException.class, () -> fs.delete(path("/held"), true), "the held directory itself");
    assertTrue(fs.exists(path("/")), "its parent is free");
    assertTrue(fs.mkdirs(path("/beside")), "and so is everything beside it");

    hold(held, "/held", DEAD_NAMENODE);
    assertTrue(fs.getFileStatus(path("/held/a/f")).isFile(), "a dead namenode's flag is ignored");
    fs.create(path("/held/a/g")).close();
    assertTrue(fs.delete(path("/held"), true));
    assertClean();
  }

  @Test
  void aSubtreeOperationWaitsForOneRunningBelowIt() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    fs.mkdirs(path("/outer/inner"));
    for (int i = 0; i < THRESHOLD; i++) {
      fs.create(path("/outer/f" + i)).close(); // more children than the threshold: the subtree protocol at once
    }
    long inner = idOf("/outer/inner");
    hold(inner, "/outer/inner", nameNode().election().selfId());
    IOException waited = assertThrows(IOException.class, () -> fs.delete(path("/outer"), true));
    assertTrue(waited.getMessage().contains("/outer/inner is held by a subtree operation"), waited.getMessage());
    assertEquals(THRESHOLD + 1, fs.listStatus(path("/outer")).length, "nothing deleted");
    assertEquals(List.of("inner"), flagged(), "and nothing more flagged");

    hold(inner, "/outer/inner", Inode.NO_SUBTREE_LOCK);
    assertTrue(fs.delete(path("/outer"), true));
    assertClean();
  }

  @Test
  void aRefusedAccessBelowDeletesNothingAndClearsTheFlag() throws Exception {
    DistributedFileSystem superuser = CLUSTER.fileSystem();
    superuser.mkdirs(path("/shared"));
    superuser.setPermission(path("/shared"), new FsPermission((short) 0777));
    DistributedFileSystem alice = CLUSTER.users().as("alice", "alice");
    DistributedFileSystem bob = CLUSTER.users().as("bob", "bob");
    int inodes = tree(alice, "/shared/big", 2, 2, 12);
    alice.setPermission(path("/shared/big/d1/s1"), new FsPermission((short) 0777));
    bob.mkdirs(path("/shared/big/d1/s1/bobs"));
    bob.create(path("/shared/big/d1/s1/bobs/private")).close();
    bob.setPermission(path("/shared/big/d1/s1/bobs"), new FsPermission((short) 0700));

    assertThrows(AccessControlException.class, () -> alice.delete(path("/shared/big"), true));

    assertEquals(inodes + 2, superuser.getContentSummary(path("/shared/big")).getFileAndDirectoryCount(),
        "a refused delete removes nothing");
    assertClean();
    assertTrue(bob.delete(path("/shared/big/d1/s1/bobs"), true));
    assertTrue(alice.delete(path("/shared/big"), true));
    assertClean();
  }

  @Test
  void aDeadNamenodesHeldDirectoryIsTakenOverByTheNextDelete() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    tree(fs, "/orphaned", 2, 2, 10);
    hold(idOf("/orphaned"), "/orphaned", DEAD_NAMENODE);
    assertTrue(fs.delete(path("/orphaned"), true));
    assertFalse(fs.exists(path("/orphaned")));
    assertClean();
  }

  /**
   * A transaction that locked an inode inside the tree before the delete flagged it (as an operation already running
   * there would) holds the quiesce phase back until it ends; meanwhile the tree's ancestor is renamed, which the flag
   * does not stop; the delete then finishes at the directory's new path.
   */
  @Test
  void theQuiesceWaitsForALockHeldInsideAndTheDeleteFollowsItsDirectoryWhenAnAncestorMoves() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    tree(fs, "/ancestor/big", 3, 3, 10);
    long inside = idOf("/ancestor/big/d2/s2/f9");
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      Future<Boolean> delete;
      try (Transaction running = CLUSTER.store().begin()) {
        running.inodes().getById(inside, LockMode.EXCLUSIVE).orElseThrow();
        delete = client.submit(() -> fs.delete(path("/ancestor/big"), true));
        Await.until("the delete flags the tree", Duration.ofSeconds(30), () -> flagged().equals(List.of("big")));
        Await.until("the quiesce phase waits for the lock held inside", Duration.ofSeconds(30),
            () -> StoreQueries.count(CLUSTER.store(), "SELECT count(*) FROM pg_stat_activity w WHERE "
                + "w.wait_event_type = 'Lock' AND EXISTS (SELECT 1 FROM pg_stat_activity h WHERE h.pid = "
                + "ANY(pg_blocking_pids(w.pid)) AND h.state = 'idle in transaction')") > 0);
        assertFalse(delete.isDone(), "the quiesce phase waits for the transaction holding a lock inside");
        assertTrue(fs.rename(path("/ancestor"), path("/moved")), "an ancestor of a held tree can move");
        running.rollback();
      }
      assertTrue(delete.get(60, TimeUnit.SECONDS));
    } finally {
      client.shutdownNow();
    }
    assertFalse(fs.exists(path("/moved/big")));
    assertEquals(0, fs.getContentSummary(path("/moved")).getFileCount());
    assertTrue(fs.delete(path("/moved"), true));
    assertClean();
  }

  /**
   * A step of a subtree delete whose namenode was evicted meanwhile (its descriptor gone: others may have ignored its
   * flag and created files below) changes nothing: it is checked against its namenode's membership descriptor.
   */
  @Test
  void aDeleteStepOfAnEvictedNamenodeChangesNothing() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    assertTrue(fs.mkdirs(path("/evicted/d")));
    for (int i = 0; i < 5; i++) {
      fs.create(path("/evicted/d/f" + i)).close();
    }
    long root = idOf("/evicted");
    long directory = idOf("/evicted/d");
    hold(root, "/evicted", DEAD_NAMENODE);
    DatanodeRegistry registry = new DatanodeRegistry(CLUSTER.store(), CLUSTER.cluster().conf(),
        System::currentTimeMillis);

    assertThrows(RetriableException.class, () -> nameNode().runner().run(new SubtreeDeleteBatchOp(registry, root,
        directory, () -> FsPath.parse("/evicted/d"), BATCH, Map.of(), DEAD_NAMENODE)));

    assertEquals(5, fs.listStatus(path("/evicted/d")).length, "nothing deleted");
    hold(root, "/evicted", Inode.NO_SUBTREE_LOCK);
    assertTrue(fs.delete(path("/evicted"), true));
    assertClean();
  }
}
