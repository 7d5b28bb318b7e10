package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.mix.MixSettings;
import io.canopy.namenode.tx.OperationMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the report states CPU per operation and the main calls' database work (fixtures, no cluster). */
class CpuSectionTest {
  @Test
  void aRowShowsEachKindTheTotalAndBothRatios() {
    Map<String, Double> canopy = new LinkedHashMap<>();
    canopy.put(CanopySystem.NAMENODES, 361.4);
    canopy.put(CanopySystem.POSTGRESQL, 209.6);
    canopy.put(CanopySystem.DATANODES, 2.0);
    canopy.put(CanopySystem.LAUNCHER, 0.0);
    CpuSection.Row row = new CpuSection.Row("Spotify mix", 900, 3000, new ServerCpu.PerOperation(canopy, 573.0),
        new ServerCpu.PerOperation(Map.of(HdfsSystem.JVM, 150.0), 150.0));
    assertEquals("| Spotify mix | 0.30 | 361 | 210 | 2 | 573 | 150 | 3.82 |", CpuSection.format(row));
  }

  @Test
  void aKindThatWasNotMeasuredIsADash() {
    CpuSection.Row row = new CpuSection.Row("NNTB open", 2000, 4000,
        new ServerCpu.PerOperation(Map.of(CanopySystem.NAMENODES, 100.0), 100.0),
        new ServerCpu.PerOperation(Map.of(HdfsSystem.JVM, 50.0), 50.0));
    assertEquals("| NNTB open | 0.50 | 100 | – | – | 100 | 50 | 2.00 |", CpuSection.format(row));
  }

  @Test
  void mainCallsShowRoundTripsAndStatementsPerCallInAFixedOrder() {
    Map<String, OperationMetrics.Snapshot> counters = new LinkedHashMap<>();
    counters.put("sendHeartbeat", new OperationMetrics.Snapshot(50, 50, 100, 0, 0, 0));
    counters.put("getFileInfo", new OperationMetrics.Snapshot(200, 200, 1200, 0, 0, 0));
    counters.put("getBlockLocations", new OperationMetrics.Snapshot(1000, 1000, 13000, 0, 0, 0));
    MixComparison.Outcome spotify = new MixComparison.Outcome("Spotify mix", MixSettings.defaults(), List.of(),
        List.of(), counters, List.of(), List.of());
    StringBuilder md = new StringBuilder();
    CpuSection.mainCalls(md, spotify);
    String text = md.toString();
    assertTrue(text.contains("| getBlockLocations | 1000 | 1.0 | 13.0 |\n| getFileInfo | 200 | 1.0 | 6.0 |\n"),
        text);
    assertTrue(text.contains("| mkdirs | 0 | – | – |"), text);
    assertTrue(!text.contains("sendHeartbeat"), "only the main calls: " + text);
    assertEquals(CpuSection.MAIN_CALLS.size(), text.lines().filter(line -> line.startsWith("| ")
        && !line.startsWith("| call")).count());
  }
}
