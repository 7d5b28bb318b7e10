package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.tx.OperationMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How `bench namenodes` writes its table (fixtures, no cluster): each workload compared with its own references. */
class NamenodeScalingTest {
  @TempDir
  Path directory;

  private static NamenodeScaling.Row row(String workload, String system, int namenodes, double... throughputs) {
    List<Double> values = java.util.Arrays.stream(throughputs).boxed().toList();
    // 2,000 operations in 4 s, 1 s of CPU each for the namenodes and PostgreSQL, 3 transactions per operation
    return new NamenodeScaling.Row(workload, system, namenodes, values, Map.of("namenode", 1.0, "PostgreSQL", 1.0),
        4.0, 0, 2000, new OperationMetrics.Snapshot(6000, 12000, 20000, 0, 0, 0));
  }

  @Test
  void eachWorkloadIsComparedWithItsOwnSingleNamenodeAndHdfsFigures() throws Exception {
    List<NamenodeScaling.Row> rows = List.of(
        row(NamenodeScaling.MIX, "Canopy", 1, 2000, 2200, 2100),
        row(NamenodeScaling.WRITES, "Canopy", 1, 100, 110, 90),
        row(NamenodeScaling.MIX, "Canopy", 2, 1050),
        row(NamenodeScaling.WRITES, "Canopy", 2, 75),
        row(NamenodeScaling.MIX, "HDFS", 1, 4200),
        row(NamenodeScaling.WRITES, "HDFS", 1, 400));
    Path out = directory.resolve("namenodes.md");

    NamenodeScaling.write(rows, BenchMode.SMOKE, 7, out, "bin/canopy bench namenodes --mode smoke", Instant.EPOCH);

    String text = Files.readString(out);
    assertTrue(text.contains("| Spotify mix | Canopy | 2 | 1050 | 0.50 | 0.25 | 0.50 |"), text);
    assertTrue(text.contains("| 500 | 500 | 3.0 | 10.0 | 0 |"), "per operation: CPU µs, transactions, statements\n"
        + text);
    String hdfsMix = text.lines().filter(line -> line.startsWith("| Spotify mix | HDFS | 1 | 4200 |")).findFirst()
        .orElseThrow();
    assertTrue(hdfsMix.endsWith("|  |  |  |  | 0 |"), "no database figures for HDFS: " + hdfsMix);
    assertTrue(text.contains("| create + write 4 KB | Canopy | 2 | 75 | 0.75 | 0.19 | 0.50 |"), text);
    assertTrue(text.contains("| create + write 4 KB | HDFS | 1 | 400 |  | 1.00 | 0.50 |"), text);
    assertTrue(text.contains("uses the stock client"), text);
    assertTrue(text.startsWith("# Spotify mix and writes with 1 and 2 namenodes"), text);
  }
}
