package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.tx.OperationMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How `bench engines` reads its engines and writes its report (fixtures, no cluster). */
class EngineComparisonTest {
  @TempDir
  Path directory;

  @Test
  void enginesAreNamedAsCanopyUpTakesThem() {
    assertEquals(MetadataEngine.POSTGRES, EngineComparison.parse("postgres"));
    assertEquals(MetadataEngine.ignite(3), EngineComparison.parse(" ignite:3"));
    assertEquals(List.of("--engine", "ignite", "--db-nodes", "3", "--timeout", "300"),
        MetadataEngine.ignite(3).upArguments());
    assertEquals(List.of(), MetadataEngine.POSTGRES.upArguments());
    assertEquals("Ignite, 1 node", MetadataEngine.ignite(1).label());
    assertEquals(List.of("create", "mkdirs", "open", "fileStatus", "rename", "delete", EngineComparison.MIX),
        EngineComparison.workloads(), "every engine's rows, a failed start's included, in the report's order");
    for (String wrong : List.of("ignite", "ignite:x", "ignite:0", "ignite:6", "postgres:2", "mysql")) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> EngineComparison.parse(wrong), wrong);
      assertTrue(refused.getMessage().contains("ignite") || refused.getMessage().contains("engine"),
          refused.getMessage());
    }
  }

  /** 1,000 operations, namenode 0.5 s and database {@code databaseSeconds} of CPU, 2 round trips per operation. */
  private static EngineComparison.Row row(String workload, MetadataEngine engine, String databaseKind,
      double databaseSeconds, double... throughputs) {
    List<Double> values = java.util.Arrays.stream(throughputs).boxed().toList();
    return new EngineComparison.Row(workload, engine, values, 1000,
        new ServerCpu.Usage(Map.of(CanopySystem.NAMENODES, 0.5, databaseKind, databaseSeconds,
            CanopySystem.DATANODES, 0.1)),
        new OperationMetrics.Snapshot(1000, 2000, 5000, 0, 0, 0), 0, null);
  }

  @Test
  void eachEngineIsComparedWithTheFirstAndItsCostsArePerOperation() throws Exception {
    Map<String, OperationMetrics.Snapshot> calls = Map.of(
        "getFileInfo", new OperationMetrics.Snapshot(900, 900, 1800, 9, 0, 0),
        "create", new OperationMetrics.Snapshot(100, 300, 1100, 0, 0, 0));
    MetadataEngine ignite = MetadataEngine.ignite(3);
    List<EngineComparison.EngineRun> runs = List.of(
        new EngineComparison.EngineRun(MetadataEngine.POSTGRES, true, Duration.ofSeconds(5), List.of(
            row("create", MetadataEngine.POSTGRES, CanopySystem.POSTGRESQL, 1.0, 400),
            row(EngineComparison.MIX, MetadataEngine.POSTGRES, CanopySystem.POSTGRESQL, 1.0, 300, 200, 100)),
            calls),
        new EngineComparison.EngineRun(ignite, true, Duration.ofSeconds(90), List.of(
            row("create", ignite, CanopySystem.IGNITE, 3.0, 40),
            new EngineComparison.Row(EngineComparison.MIX, ignite, List.of(), 0, ServerCpu.Usage.NONE,
                OperationMetrics.Snapshot.ZERO, 1, "the mix's namespace build failed")),
            Map.of("getFileInfo", new OperationMetrics.Snapshot(10, 20, 40, 5, 0, 0))));
    Path out = directory.resolve("engines.md");

    EngineComparison.write(runs, BenchMode.SMOKE, 7, out, "bin/canopy bench engines --mode smoke", Instant.EPOCH);

    String text = Files.readString(out);
    assertTrue(text.contains("| create | 400.0 | 40.0 | 0.10 |"), "ratio to the first engine\n" + text);
    assertTrue(text.contains("| Spotify mix | 200.0 (100.0–300.0) | failed |  |"), text);
    assertTrue(text.contains("| create | Ignite, 3 nodes | 40.0 | 1.00 | 2.0 | 5.0 | 500 | 3000 | 100 | 0 |"),
        "costs per operation, the database's CPU whichever engine\n" + text);
    assertTrue(text.contains("| create | PostgreSQL | 400.0 | 1.00 | 2.0 | 5.0 | 500 | 1000 | 100 | 0 |"), text);
    assertTrue(text.contains("| getFileInfo | 900, 1.0, 2.0, 0.01 | 10, 2.0, 4.0, 0.50 |"), text);
    assertTrue(text.indexOf("| getFileInfo |") < text.indexOf("| create | 100, 3.0, 11.0, 0.00 | |"),
        "calls made most first; a call one engine never ran has an empty cell\n" + text);
    assertTrue(text.contains("- Ignite, 3 nodes, Spotify mix: the mix's namespace build failed"), text);
    assertTrue(text.contains("| Ignite, 3 nodes | 90 s |"), text);
    assertEquals(1, EngineComparison.failures(runs));
  }

  @Test
  void anEngineWhoseClusterDidNotStartIsReportedAsSuch() throws Exception {
    List<EngineComparison.Row> failed = EngineComparison.workloads().stream().map(workload -> new EngineComparison.Row(
        workload, MetadataEngine.ignite(3), List.<Double>of(), 0, ServerCpu.Usage.NONE, OperationMetrics.Snapshot.ZERO,
        1, "canopy up failed: datanode-1 is not ready after 300 s")).toList();
    List<EngineComparison.Row> measured = EngineComparison.workloads().stream().map(workload ->
        row(workload, MetadataEngine.POSTGRES, CanopySystem.POSTGRESQL, 1.0, 100)).toList();
    List<EngineComparison.EngineRun> runs = List.of(
        new EngineComparison.EngineRun(MetadataEngine.POSTGRES, true, Duration.ofSeconds(5), measured, Map.of()),
        new EngineComparison.EngineRun(MetadataEngine.ignite(3), false, Duration.ofSeconds(301), failed, Map.of()));
    Path out = directory.resolve("engines.md");

    EngineComparison.write(runs, BenchMode.SMOKE, 7, out, "bin/canopy bench engines", Instant.EPOCH);

    String text = Files.readString(out);
    assertTrue(text.contains("| Ignite, 3 nodes | failed after 301 s |"), text);
    assertTrue(text.contains("| open | 100.0 | failed |  |"), text);
    assertTrue(text.contains("- Ignite, 3 nodes, delete: canopy up failed: datanode-1 is not ready after 300 s"), text);
    assertEquals(EngineComparison.workloads().size(), EngineComparison.failures(runs));
  }
}
