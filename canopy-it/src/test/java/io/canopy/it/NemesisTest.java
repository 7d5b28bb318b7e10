package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.nemesis.ClusterFaults;
import io.canopy.bench.nemesis.FaultKind;
import io.canopy.bench.nemesis.NemesisReport;
import io.canopy.bench.nemesis.NemesisRun;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nemesis' CI tier (issue 20): a {@code canopy up} cluster of 3 namenodes and 3 datanodes on PostgreSQL under
 * four clients, 30 faults of every kind one after another (namenode SIGKILL and SIGSTOP, the datanodes' process
 * SIGKILL, PostgreSQL SIGSTOP and SIGKILL with restart, transient store faults in every namenode, one namenode's clock
 * moved), bounded at 10 minutes of faults. Then no acknowledged
 * operation may be lost, every file's bytes must be intact, {@code canopy fsck} must find the metadata healthy, no
 * shared history may be non-linearizable, and every fault must have healed. The soak tier is
 * {@code bin/canopy soak --minutes N}.
 */
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class NemesisTest {
  @TempDir
  Path directory;

  @Test
  void thirtyFaultsLoseNoAcknowledgedOperation() throws Exception {
    PrintWriter progress = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    NemesisReport report = NemesisRun.run(new NemesisRun.Settings(directory.resolve("cluster"),
        Duration.ofMinutes(10), 30, 4, 20_261_130L, Duration.ofSeconds(2), false), progress);
    progress.println(report.markdown());
    assertTrue(report.clean(), report.markdown());
    assertTrue(report.faults().size() >= 20, "faults injected within the bound: " + report.faults().size());
    Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
    report.faults().forEach(fault -> kinds.add(fault.kind()));
    assertEquals(EnumSet.allOf(FaultKind.class), kinds, "every kind of fault was injected");
    assertTrue(report.acknowledged() > 500, "the workload ran: " + report.acknowledged() + " acknowledged");
    assertTrue(report.historiesLinearizable() > 0, "shared histories were found linearizable, not only checked");
    // the namenodes took the faults the control file asked for (they log each change)
    StringBuilder logs = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      logs.append(Files.readString(directory.resolve("cluster/logs/namenode-" + i + ".log")));
    }
    assertTrue(logs.indexOf("Injected faults now: dal.fault.probability=" + ClusterFaults.DAL_FAULT_PROBABILITY) >= 0,
        "a namenode took the transient store faults");
    assertTrue(java.util.regex.Pattern.compile("store faults injected so far: \\{[^}]*=[1-9]").matcher(logs).find(),
        "transactions failed on purpose (the counts a namenode logs when its faults change)");
    assertTrue(java.util.regex.Pattern.compile("Injected faults now: dal.fault.probability=0.0, "
        + "clock.offset.ms=-?[1-9]")
        .matcher(logs).find(), "a namenode's clock was moved");
    assertTrue(report.historiesUndecided() * 4 <= report.historiesChecked(),
        "most histories decided: " + report.historiesUndecided() + " of " + report.historiesChecked() + " undecided");
  }
}
