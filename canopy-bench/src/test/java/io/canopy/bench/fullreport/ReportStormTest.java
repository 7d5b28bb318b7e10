package io.canopy.bench.fullreport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.CanopySystem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReportStorm} on a small Canopy whose namenode grants one full-report lease at a time: three datanodes that
 * report at once over the stock DatanodeProtocol are served one by one (the others are refused and ask again), every
 * report is applied, and the clients' calls never fail meanwhile.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReportStormTest {
  @TempDir
  Path directory;

  @Test
  void datanodesReportingAtOnceAreServedOneLeaseAtATimeWhileClientsWork() throws Exception {
    StringWriter output = new StringWriter();
    PrintWriter progress = new PrintWriter(output, true);
    Configuration conf = new Configuration();
    conf.setInt("ipc.client.connect.max.retries", 2);
    List<ReportStorm.Phase> phases;
    try (CanopySystem canopy = CanopySystem.start(directory.resolve("canopy"), 0,
        Map.of("dfs.namenode.max.full.block.report.leases", "1"))) {
      phases = ReportStorm.run(canopy.uri(), canopy.datanodeProtocolAddress(), canopy.clientConfiguration(conf),
          canopy.serverCpuRoots(), 3, 900, 0.05, 7, progress, canopy.name());
    }
    System.out.println(output);
    assertEquals(List.of(ReportStorm.QUIET, ReportStorm.LOST, ReportStorm.FOUND),
        phases.stream().map(ReportStorm.Phase::kind).toList(), output.toString());
    long refused = 0;
    for (ReportStorm.Phase phase : phases) {
      assertTrue(phase.clients().count() > 0, "client calls in " + phase + "\n" + output);
      assertEquals(0, phase.clientFailures(), phase + "\n" + output);
      if (!phase.kind().equals(ReportStorm.QUIET)) {
        assertTrue(phase.seconds() > 0, phase.toString());
      }
      refused += phase.leasesRefused();
    }
    assertTrue(refused > 0, "three datanodes asked for the one lease at once, none was refused:\n" + output);
  }
}
