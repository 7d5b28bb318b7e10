package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.datanode.ReportAppliers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Design 018: the namenode applying a datanode's reports is killed while files are written through another. Until
 * the group evicts it, the others leave that datanode's reports to it; then its new applier replays what it kept, so
 * every replica written meanwhile is recorded (without the replay, blocks would keep 2 of their 3 replicas until the
 * datanode's next full report, hours later).
 */
@Timeout(300)
class ReportApplierHandoverTest {
  private static final int NAMENODES = 3;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong(NameNodeConfig.ELECTION_ROUND_MS, 300))
      .nameNodes(NAMENODES).dataNodes(3).awaitLeader().build();

  @Test
  void anApplierKilledUnderWritesLosesNoReplica() throws Exception {
    MiniCanopyCluster cluster = CLUSTER.cluster();
    Await.until("every namenode sees the group", Duration.ofSeconds(30), () -> {
      for (int i = 0; i < NAMENODES; i++) {
        if (cluster.nameNode(i).election().liveNamenodes().size() != NAMENODES) {
          return false;
        }
      }
      return true;
    });
    // Past the joining handover (a namenode that stops being a datanode's applier keeps applying for a while), each
    // replica is applied by one namenode and left by the two others
    int[] probe = {0};
    Await.until("reports applied by one namenode each", Duration.ofSeconds(60), () -> {
      long[] before = totals(cluster);
      TestFiles.write(CLUSTER.fileSystem(0), new Path("/handover/probe-" + probe[0]++), new byte[100], 64 * 1024);
      Thread.sleep(300); // the datanodes' reports follow the close
      long[] after = totals(cluster);
      return after[0] - before[0] == 3 && after[1] - before[1] == 6;
    });
    // The victim applies some datanode's reports and is not the leader: a new leader would ask every datanode for a
    // full report, which records the replicas without any replay. The writer goes through another namenode.
    ReportAppliers appliers = new ReportAppliers(cluster.nameNode(0).election(), System::currentTimeMillis,
        () -> 0, 1);
    long leaderId = cluster.nameNode(0).election().leaderId();
    int victim = -1;
    for (DataNode dataNode : cluster.dataNodes()) {
      long applierId = appliers.applierOf(dataNode.getDatanodeUuid());
      for (int i = 0; i < NAMENODES; i++) {
        if (applierId != leaderId && cluster.nameNode(i).election().selfId() == applierId) {
          victim = i;
        }
      }
    }
    // all three datanodes hash to the leader in 1 cluster of 27
    assumeTrue(victim >= 0, "every datanode's applier is the leader in this cluster: nothing to hand over");
    int writerIndex = (victim + 1) % NAMENODES;
    FileSystem writer = CLUSTER.fileSystem(writerIndex);

    Map<Path, byte[]> written = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writes = new Thread(() -> {
      int i = 0;
      try {
        while (!stop.get()) {
          byte[] data = TestFiles.randomBytes(1000 + i, i);
          Path path = new Path("/handover/f" + i++);
          TestFiles.write(writer, path, data, 64 * 1024);
          written.put(path, data);
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "handover-writer");
    writes.start();
    Thread.sleep(1_500);
    cluster.crashNameNode(victim);
    int survivor = writerIndex;
    Await.until("the victim evicted", Duration.ofSeconds(30),
        () -> cluster.nameNode(survivor).election().liveNamenodes().size() == NAMENODES - 1);
    Thread.sleep(3_000);
    stop.set(true);
    writes.join(60_000);
    if (failure.get() != null) {
      throw new AssertionError("a write failed", failure.get());
    }
    assertTrue(written.size() > 10, "files written: " + written.size());

    for (Map.Entry<Path, byte[]> file : written.entrySet()) {
      Await.until("3 recorded replicas of " + file.getKey(), Duration.ofSeconds(30), () -> {
        BlockLocation[] blocks = writer.getFileBlockLocations(file.getKey(), 0, Long.MAX_VALUE);
        return blocks.length == 1 && blocks[0].getHosts().length == 3;
      });
      assertArrayEquals(file.getValue(), TestFiles.read(writer, file.getKey()));
    }
    long replayed = 0;
    for (int i = 0; i < NAMENODES; i++) {
      if (i != victim) {
        replayed += cluster.nameNode(i).reportCounters().replicasReplayed();
      }
    }
    assertTrue(replayed > 0, "the new applier replayed the reports left to the dead one");
    assertEquals(leaderId, cluster.nameNode(survivor).election().leaderId(), "the leader did not change");
  }

  /** Replica entries applied and left, summed over the namenodes. */
  private static long[] totals(MiniCanopyCluster cluster) {
    long applied = 0;
    long left = 0;
    for (int i = 0; i < NAMENODES; i++) {
      applied += cluster.nameNode(i).reportCounters().replicasApplied();
      left += cluster.nameNode(i).reportCounters().replicasLeft();
    }
    return new long[] {applied, left};
  }
}
