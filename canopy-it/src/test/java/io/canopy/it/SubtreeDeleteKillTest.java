package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namenode killed (as SIGKILL would) in the middle of a subtree delete (design 017), at a seeded point of the
 * quiesce phase or of the delete phase, 10 runs: the other namenode waits for the dead one's flag until membership
 * declares it dead, then the client's retry there finishes the delete; the namespace is consistent, nothing is left
 * of the tree (no orphan inode, block, replica, attribute or flag), and the killed namenode comes back.
 */
@Timeout(600)
class SubtreeDeleteKillTest {
  private static final int RUNS = 10;
  private static final long SEED = 20261127;
  private static final Duration BOUND = Duration.ofSeconds(60);
  /** Small batches: a delete of the test's trees takes dozens of transactions, so a kill lands inside it. */
  private static final int BATCH = 4;

  @TempDir
  Path directory;

  private static long operations(NameNode nameNode, String name) {
    return nameNode.runner().metrics().snapshot().getOrDefault(name, OperationMetrics.Snapshot.ZERO).operations();
  }

  /** A tree of 4 directories of 8 empty files and one file with a block each: 41 inodes. */
  private static void tree(DistributedFileSystem fs, String root, int run) throws IOException {
    for (int d = 0; d < 4; d++) {
      String dir = root + "/d" + d;
      assertTrue(fs.mkdirs(path(dir)));
      for (int f = 0; f < 8; f++) {
        fs.create(path(dir + "/f" + f)).close();
      }
      TestFiles.write(fs, path(dir + "/data"), TestFiles.randomBytes(100, run * 10L + d), (short) 1, 1024);
    }
  }

  @Test
  void aDeleteInterruptedByAKilledNamenodeIsFinishedByTheRetryOnAnother() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 300);
    conf.setLong(NameNodeConfig.SUBTREE_PROTOCOL_THRESHOLD, 10);
    conf.setInt(NameNodeConfig.SUBTREE_BATCH_SIZE, BATCH);
    conf.setInt(NameNodeConfig.SUBTREE_THREADS, 2);
    conf.setLong(NameNodeConfig.SUBTREE_WAIT_MS, 200);
    Random random = new Random(SEED);
    int interrupted = 0;
    List<String> outcomes = new ArrayList<>();
    ExecutorService client = Executors.newSingleThreadExecutor();
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 2, 1);
        MetadataStore store = cluster.openStore()) {
      // every tree first: the kills below change leaders, and a new leader takes a while to place blocks again
      for (int run = 0; run < RUNS; run++) {
        tree(cluster.fileSystem(1), "/kill" + run, run);
      }
      for (int run = 0; run < RUNS; run++) {
        String root = "/kill" + run;
        DistributedFileSystem survivor = cluster.fileSystem(1);
        NameNode victim = cluster.nameNode(0);
        String phaseOp = run % 2 == 0 ? "subtreeQuiesce" : "subtreeDeleteBatch";
        long killAfter = operations(victim, phaseOp) + 1 + random.nextInt(run % 2 == 0 ? 4 : 8);
        DistributedFileSystem doomed = cluster.fileSystem(0);
        Future<Boolean> delete = client.submit(() -> doomed.delete(path(root), true));
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!delete.isDone() && operations(victim, phaseOp) < killAfter) {
          assertTrue(System.nanoTime() < deadline, "run " + run + ": the delete never reached " + phaseOp);
          Thread.onSpinWait();
        }
        boolean doneBefore = delete.isDone();
        cluster.crashNameNode(0);
        boolean before;
        try {
          before = doneBefore && delete.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException killed) {
          before = false; // the call died with its namenode: expected
        }
        // read in the database: through a namenode, the dead one's flag answers "retry" until it is evicted
        if (StoreQueries.count(store, "SELECT count(*) FROM inodes WHERE name = 'kill" + run + "'") == 1) {
          interrupted++;
        }
        boolean answer = retryDelete(survivor, root);
        outcomes.add("run " + run + " (" + phaseOp + " " + killAfter + "): "
            + (before ? "finished before the kill" : "killed") + ", retry answered " + answer);
        assertFalse(survivor.exists(path(root)), "run " + run + ": the retry finished the delete");
        assertEquals(List.of(), NamespaceInvariants.violations(store), "run " + run);
        assertEquals(0, StoreQueries.count(store, "SELECT count(*) FROM subtree_operations"), "run " + run);
        cluster.restartNameNode(0);
      }
    } finally {
      client.shutdownNow();
    }
    System.out.println(String.join("\n", outcomes));
    assertTrue(interrupted >= RUNS / 2, "most kills land inside the delete: " + interrupted + " of " + RUNS
        + "\n" + String.join("\n", outcomes));
  }

  /**
   * The client's retry on the surviving namenode: told to retry while the dead namenode's flag still counts (until
   * membership declares it dead), then answered.
   */
  private static boolean retryDelete(DistributedFileSystem fs, String root) throws Exception {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (true) {
      try {
        return fs.delete(path(root), true);
      } catch (IOException e) {
        assertTrue(e.getMessage().contains("held by a subtree operation"), e.getMessage());
        assertTrue(System.nanoTime() < deadline, "the dead namenode's flag was never ignored: " + e.getMessage());
        Thread.sleep(100);
      }
    }
  }
}
