package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Subtree flags nobody will clear by finishing (design 017) go, every 300 ms here: the leader clears those of dead
 * namenodes, and each namenode its own that none of its running operations holds once they are older than the
 * interval (a clearing after a failure that failed too); a fresh one of its own, or a live namenode's, stays.
 */
@Timeout(120)
class SubtreeLockCleanupTest {
  private static final long INTERVAL_MS = 300;
  /** A namenode id no namenode of the cluster has: a dead one. */
  private static final long DEAD_NAMENODE = 999_999;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong(NameNodeConfig.SUBTREE_CLEANUP_INTERVAL_MS, INTERVAL_MS))
      .dataNodes(0).awaitLeader().build();

  private static long idOf(String path) throws IOException {
    return CLUSTER.fileSystem().getClient().getFileInfo(path).getFileId();
  }

  private static void hold(long id, String path, long owner, long startedMs) throws IOException {
    HeldSubtrees.hold(CLUSTER.store(), id, path, owner, startedMs);
  }

  private static List<String> flagged() throws IOException {
    return HeldSubtrees.flagged(CLUSTER.store());
  }

  @Test
  void flagsNoRunningOperationWillClearAreCleared() throws Exception {
    DistributedFileSystem fs = CLUSTER.fileSystem();
    for (String name : new String[] {"dead", "stale", "fresh"}) {
      assertTrue(fs.mkdirs(path("/cleanup/" + name + "/inside")));
    }
    long self = CLUSTER.cluster().nameNode(0).election().selfId();
    long now = System.currentTimeMillis();
    hold(idOf("/cleanup/dead"), "/cleanup/dead", DEAD_NAMENODE, now);
    hold(idOf("/cleanup/stale"), "/cleanup/stale", self, now - 60_000);
    // a flag of its own this fresh is one whose operation may be about to note it: the cleanup leaves it for now
    hold(idOf("/cleanup/fresh"), "/cleanup/fresh", self, now + 60_000);
    Await.until("the dead namenode's and the stale flags are cleared", Duration.ofSeconds(30),
        () -> flagged().equals(List.of("fresh")));
    assertEquals(1, StoreQueries.count(CLUSTER.store(), "SELECT count(*) FROM subtree_operations"),
        "their rows went with them");
    assertTrue(fs.getFileStatus(path("/cleanup/stale/inside")).isDirectory(), "what was below is reachable again");
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }
}
