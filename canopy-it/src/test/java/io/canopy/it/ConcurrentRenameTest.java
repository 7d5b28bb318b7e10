package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crossing directory moves that would close a cycle if both committed: /p/a into /q/b/c while /q/b moves into
 * /p/a/d. Their parents differ, so only the shared locks on the destinations' ancestors make them conflict.
 */
@Timeout(180)
class ConcurrentRenameTest {
  private static final int ROUNDS = 25;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(2).build();

  /** True when the move happened, false when the namenode refused it as HDFS would. */
  private static boolean move(DistributedFileSystem fs, String source, String destination) throws IOException {
    try {
      fs.rename(path(source), path(destination), Options.Rename.NONE);
      return true;
    } catch (FileNotFoundException refused) {
      return false;
    } catch (RemoteException remote) {
      if (remote.getMessage().contains("under source") || remote.getMessage().contains("not found")) {
        return false;
      }
      throw remote;
    }
  }

  @Test
  void crossingMovesNeverCloseACycle() throws Exception {
    DistributedFileSystem first = CLUSTER.cluster().fileSystem(0);
    DistributedFileSystem second = CLUSTER.cluster().fileSystem(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        String base = "/cycle/r" + round;
        first.mkdirs(path(base + "/p/a/d"));
        first.mkdirs(path(base + "/q/b/c"));
        // warm both namenodes' hint caches with the paths the other move will change
        assertTrue(second.exists(path(base + "/p/a/d")) && second.exists(path(base + "/q/b/c")));
        CountDownLatch start = new CountDownLatch(1);
        Future<Boolean> one = pool.submit(() -> {
          start.await();
          return move(first, base + "/p/a", base + "/q/b/c/a");
        });
        Future<Boolean> two = pool.submit(() -> {
          start.await();
          return move(second, base + "/q/b", base + "/p/a/d/b");
        });
        start.countDown();
        int moved = (one.get(60, TimeUnit.SECONDS) ? 1 : 0) + (two.get(60, TimeUnit.SECONDS) ? 1 : 0);
        assertEquals(1, moved, "round " + round + ": exactly one of the crossing moves can succeed");
      }
    } finally {
      pool.shutdownNow();
    }
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      // every inode reachable from the root (no cycle, no orphan), names unique, children counts right: checked in
      // the namenode's language-neutral way, on either engine (Ignite's SQL has no recursive query)
      assertEquals(List.of(), NamespaceInvariants.violations(store));
    }
  }
}
