package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.NameNodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a leader change the new leader postpones deleting replicas (excess ones, and those of blocks no file holds)
 * until every live datanode has sent it a full block report, as HDFS postpones them after a failover: a replica
 * record written under the old leader may be out of date. A datanode played by the test heartbeats to the new leader
 * but sends no full report: nothing is deleted until it does, then both deletions happen.
 */
@Timeout(180)
class LeaderChangeDeletionsTest {
  private static final Duration BOUND = Duration.ofSeconds(60);
  /** Long enough for several replication runs (1 s apart) and heartbeats of the new leader. */
  private static final long WATCH_MS = 6_000;

  @TempDir
  Path directory;

  @Test
  void excessAndUnknownReplicasWaitForEveryLiveDatanodesFullReportToTheNewLeader() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NameNodeConfig.REPLICATION_REPORT_GRACE_MS, 500);
    conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 500);
    // A datanode that registered but sent no full report is asked again (to register, then report) after this.
    conf.setLong(NameNodeConfig.FULL_REPORT_ASK_AGAIN_MS, 2_000);
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 2, 3);
        MetadataStore store = cluster.openStore()) {
      DistributedFileSystem fs = cluster.fileSystem(1);
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/failover/f");
      byte[] data = TestFiles.randomBytes(10_000, 5);
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(path, (short) 2)) {
        out.write(data);
      }
      LocatedBlock located = fs.getClient().getLocatedBlocks(path.toString(), 0).get(0);
      long blockId = located.getBlock().getBlockId();
      Await.until("the file has its two replicas", BOUND, () -> StoreQueries.count(store,
          "SELECT count(*) FROM replicas WHERE block_id = " + blockId) == 2);

      cluster.crashNameNode(0); // the leader (the smallest id leads)
      Await.until("namenode 1 leads", BOUND, () -> cluster.nameNode(1).election().isLeader());

      try (ScriptedDatanode scripted = new ScriptedDatanode(cluster.nameNode(1), conf, 0)) {
        heartbeats.scheduleWithFixedDelay(() -> {
          try {
            scripted.heartbeat();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }, 0, 300, TimeUnit.MILLISECONDS);
        Await.until("the played datanode is live with its storage", BOUND, () -> fs.getDataNodeStats().length == 4
            && StoreQueries.count(store, "SELECT count(*) FROM storages WHERE storage_id = '"
                + scripted.storageId() + "'") == 1);
        // A third replica (the played datanode has the least room: it is the one to go) and a block no file holds.
        Block block = located.getBlock().getLocalBlock();
        Block unknown = new Block(store.allocateIds(IdKind.BLOCK, 1).first(), 100, block.getGenerationStamp());
        scripted.received(block, unknown);
        Await.until("the third replica is recorded", BOUND, () -> StoreQueries.count(store,
            "SELECT count(*) FROM replicas WHERE block_id = " + blockId) == 3);

        Thread.sleep(WATCH_MS);
        assertEquals(3, StoreQueries.count(store, "SELECT count(*) FROM replicas WHERE block_id = " + blockId),
            "no excess replica removed while a live holder has not reported to the new leader");
        assertEquals(0, StoreQueries.count(store, "SELECT count(*) FROM invalidated_blocks WHERE block_id IN ("
            + blockId + ", " + unknown.getBlockId() + ")"), "no deletion queued meanwhile");
        assertEquals(List.of(), scripted.deletions());
        assertTrue(scripted.askedToRegister(), "the new leader asks for the full report that does not come");

        scripted.fullReport(block, unknown);
        Await.until("the excess replica and the unknown one are deleted on the played datanode", BOUND,
            () -> scripted.deletions().containsAll(List.of(blockId, unknown.getBlockId())));
        assertEquals(2, StoreQueries.count(store, "SELECT count(*) FROM replicas WHERE block_id = " + blockId
            + " AND storage_id <> '" + scripted.storageId() + "'"), "the real datanodes keep theirs");
        assertFalse(StoreQueries.count(store, "SELECT count(*) FROM replicas WHERE storage_id = '"
            + scripted.storageId() + "'") > 0);
        heartbeats.shutdownNow();
        assertArrayEquals(data, TestFiles.read(fs, path));
      }
    } finally {
      heartbeats.shutdownNow();
    }
  }
}
