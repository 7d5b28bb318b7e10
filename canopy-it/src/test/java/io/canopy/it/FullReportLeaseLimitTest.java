package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.datanode.DataNodeLauncher;
import io.canopy.namenode.datanode.ReportCounters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datanodes starting together send their first full reports one at a time when the namenode grants one full-report
 * lease at a time (dfs.namenode.max.full.block.report.leases = 1): each report ends its lease, so every datanode's
 * report is applied in turn, none waits for a lease to expire.
 */
@Timeout(120)
class FullReportLeaseLimitTest {
  private static final int DATANODES = 4;

  @TempDir
  Path directory;

  @Test
  void datanodesStartingTogetherReportOneAtATimeAndAllAreApplied() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setInt("dfs.namenode.max.full.block.report.leases", 1);
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 0)) {
      ReportCounters counters = cluster.nameNode(0).reportCounters();
      long before = counters.fullReportsApplied();
      // started together (not through the cluster, which starts one at a time): first full reports due at once
      ExecutorService starters = Executors.newFixedThreadPool(DATANODES);
      List<Future<DataNode>> started = new ArrayList<>();
      try {
        for (int i = 0; i < DATANODES; i++) {
          Path dataDirectory = directory.resolve("together-" + i);
          started.add(starters.submit(() -> DataNodeLauncher.start(cluster.dataNodeConfiguration(), dataDirectory)));
        }
        for (Future<DataNode> dataNode : started) {
          dataNode.get(60, TimeUnit.SECONDS);
        }
        // one namenode, so each datanode's first report is applied once; well inside the 5-minute lease length,
        // which a lease not ended by its report would hold the others back for
        Await.until("every datanode's first full report is applied", Duration.ofSeconds(60),
            () -> counters.fullReportsApplied() - before >= DATANODES);
        assertEquals(1, counters.fullReportsInProgressMax(), "one full report applied at a time");
        cluster.waitForDataNodes(DATANODES, Duration.ofSeconds(30));
        assertTrue(cluster.fileSystem().getStatus().getCapacity() > 0);
      } finally {
        starters.shutdown();
        starters.awaitTermination(60, TimeUnit.SECONDS); // a start still running ends before its datanode is stopped
        for (Future<DataNode> dataNode : started) {
          if (dataNode.isDone() && !dataNode.isCancelled()) {
            try {
              dataNode.get().shutdown();
            } catch (java.util.concurrent.ExecutionException e) {
              // it did not start: nothing to stop
            } catch (RuntimeException e) {
              // the others are stopped all the same
            }
          }
        }
      }
    }
  }
}
