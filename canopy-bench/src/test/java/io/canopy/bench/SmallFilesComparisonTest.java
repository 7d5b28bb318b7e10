package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.SmallFilesComparison.Cell;
import io.canopy.bench.SmallFilesComparison.Client;
import io.canopy.bench.SmallFilesComparison.Outcome;
import io.canopy.bench.SmallFilesComparison.Target;
import io.canopy.bench.mix.FileRunResult;
import io.canopy.bench.mix.LatencyStatistics;
import io.canopy.bench.mix.SmallFilesRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small-files section's arithmetic (ratios, targets, failures) and its Markdown, from synthetic results. */
class SmallFilesComparisonTest {
  private static final BenchMode.SmallFiles SETTINGS = new BenchMode.SmallFiles(16, 1000, 2000, 8, 500, 1000);

  /** One run: {@code filesPerSecond} and a p90 of {@code p90Ms} (p50 half of it, p99 twice), no failure. */
  private static FileRunResult run(double filesPerSecond, double p90Ms, long failures, String... messages) {
    long files = Math.round(filesPerSecond * 2);
    return new FileRunResult(16, 2.0, files, filesPerSecond,
        new LatencyStatistics(files, files, p90Ms / 2, p90Ms, p90Ms * 2, p90Ms / 2, p90Ms * 3), failures, 0,
        List.of(messages));
  }

  private static Cell cell(int kb, Client client, FileRunResult write, FileRunResult read) {
    ServerCpu.Usage usage = new ServerCpu.Usage(Map.of(CanopySystem.NAMENODES, 0.5));
    return new Cell(kb * 1024, client, List.of(new SmallFilesRunner.Result(kb * 1024, write, read)),
        List.of(usage), List.of(usage));
  }

  /** Every table size on all three clients; at 4 KB the Canopy client writes 12.5x and reads 1.25x HDFS. */
  private static Outcome outcome(boolean canopyClient, FileRunResult stockRead4k) {
    List<Cell> table = new ArrayList<>();
    for (int kb : SmallFilesComparison.TABLE_KB) {
      if (canopyClient) {
        table.add(cell(kb, Client.CANOPY_CLIENT, run(1000, 20, 0), run(5000, 3, 0)));
        // the stock client reading what Canopy's client stored: the row the stock-read targets take
        table.add(cell(kb, Client.STOCK_READS_SMALL, run(1000, 20, 0), kb == 4 ? stockRead4k : run(2000, 8, 0)));
      }
      table.add(cell(kb, Client.STOCK_CANOPY, run(67, 300, 0), kb == 4 ? stockRead4k : run(2000, 8, 0)));
      table.add(cell(kb, Client.STOCK_HDFS, run(80, 440, 0), run(4000, 4, 0)));
    }
    List<Cell> crossover = new ArrayList<>();
    Client canopySide = canopyClient ? Client.CANOPY_CLIENT : Client.STOCK_CANOPY;
    for (int kb : SmallFilesComparison.CROSSOVER_KB) {
      // Canopy ahead up to 64 KB, behind from 128 KB on
      double canopyWrites = kb <= 64 ? 900 : 40;
      crossover.add(cell(kb, canopySide, run(canopyWrites, 10, 0), run(3000, 3, 0)));
      crossover.add(cell(kb, Client.STOCK_HDFS, run(100, 400, 0), run(1500, 5, 0)));
    }
    return new Outcome(SETTINGS, 1, canopyClient ? null : "io.canopy.client.CanopyFileSystem is not on the class path",
        table, canopySide, crossover);
  }

  @Test
  void ratiosPutCanopyOverHdfsForThroughputAndHdfsOverCanopyForP90() {
    Outcome outcome = outcome(true, run(2000, 8, 0));
    assertEquals(12.5, outcome.writeRatio(Client.CANOPY_CLIENT, 4), 1e-9);
    assertEquals(1.25, outcome.readRatio(Client.CANOPY_CLIENT, 4), 1e-9);
    assertEquals(22.0, outcome.writeP90Ratio(Client.CANOPY_CLIENT, 4), 1e-9);
    assertEquals(4.0 / 3.0, outcome.readP90Ratio(Client.CANOPY_CLIENT, 4), 1e-9);
    assertEquals(0.5, outcome.readRatio(Client.STOCK_CANOPY, 16), 1e-9);
    assertEquals(0.5, outcome.readP90Ratio(Client.STOCK_CANOPY, 16), 1e-9);
    assertTrue(Double.isNaN(outcome(false, run(2000, 8, 0)).writeRatio(Client.CANOPY_CLIENT, 4)),
        "no Canopy client: no ratio");
  }

  @Test
  void targetsAreMetOrMissedByTheirGoals() {
    List<Target> targets = outcome(true, run(4400, 2, 0)).targets();
    assertEquals(4 + 2 * SmallFilesComparison.TABLE_KB.size(), targets.size(), targets.toString());
    Target writes = targets.get(0);
    assertEquals("Canopy client, 4 KB writes: throughput, Canopy / HDFS", writes.measure());
    assertEquals(10.0, writes.goal());
    assertTrue(writes.met());
    Target reads = find(targets, "Canopy client, 4 KB reads: throughput, Canopy / HDFS");
    assertEquals(3.0, reads.goal());
    assertFalse(reads.met(), "1.25 is below 3");
    assertTrue(find(targets, "Canopy client, 4 KB writes: p90 latency, HDFS / Canopy").met());
    assertFalse(find(targets, "Canopy client, 4 KB reads: p90 latency, HDFS / Canopy").met());
    // stock client reading Canopy client's (database-resident) files: no worse than HDFS, at every size
    String stock = "stock client → Canopy, reading Canopy client's files, ";
    assertTrue(find(targets, stock + "4 KB reads: throughput, Canopy / HDFS").met(), "4400 >= 4000");
    assertTrue(find(targets, stock + "4 KB reads: p90 latency, HDFS / Canopy").met(), "2 <= 4 ms");
    assertFalse(find(targets, stock + "64 KB reads: throughput, Canopy / HDFS").met());
  }

  @Test
  void aMissingCanopyClientMissesItsTargetsAndSaysSo() {
    Outcome outcome = outcome(false, run(2000, 8, 0));
    Target writes = find(outcome.targets(), "Canopy client, 4 KB writes: throughput, Canopy / HDFS");
    assertFalse(writes.met());
    assertTrue(Double.isNaN(writes.ratio()));
    String text = render(outcome);
    assertTrue(text.contains("| 4 KB | Canopy client | not available in this build |"), text);
    assertTrue(text.contains("| Canopy client, 4 KB writes: throughput, Canopy / HDFS | not available in this build "
        + "| >= 10 | – |"), text);
    assertTrue(text.contains("io.canopy.client.CanopyFileSystem is not on the class path"), text);
    assertTrue(text.contains("| size | stock client → Canopy write files/s | HDFS write files/s |"),
        "the crossover names the client it used:\n" + text);
  }

  @Test
  void aFailedReadIsCountedShownAndQuoted() {
    String mismatch = "small-file read, thread 3, file 7: java.io.IOException: content mismatch: /x/f-1-2 byte 5";
    Outcome outcome = outcome(true, run(2000, 8, 1, mismatch));
    assertEquals(2, outcome.failures(), "the failed read is in both stock-client rows at 4 KB");
    String text = render(outcome);
    assertTrue(text.contains("| 4 KB | stock client → Canopy | 67 | 150.0 | 300.0 | 600.0 | 2000 | 4.00 | 8.00 | 16.00 "
        + "| 3731 | 125 | 1 |"), text);
    assertTrue(text.contains(mismatch), "the failure message is quoted:\n" + text);
    assertEquals(0, outcome(true, run(2000, 8, 0)).failures());
  }

  @Test
  void theReportShowsRatiosTargetsAndTheCrossover() {
    String text = render(outcome(true, run(2000, 8, 0)));
    assertTrue(text.contains("## Small files"), text);
    assertTrue(text.contains("| 4 KB | 12.50 | 1.25 | 22.00 | 1.33 | 0.84 | 0.50 | 1.47 | 0.50 |"), text);
    assertTrue(text.contains("| Canopy client, 4 KB writes: throughput, Canopy / HDFS | 12.50 | >= 10 | met |"), text);
    assertTrue(text.contains("| Canopy client, 4 KB reads: throughput, Canopy / HDFS | 1.25 | >= 3 | missed |"), text);
    assertTrue(text.contains("![Small files crossover](crossover.png)"), text);
    assertTrue(text.contains("| 64 KB | 900 | 100 | 9.00 | 3000 | 1500 | 2.00 |"), text);
    assertTrue(text.contains("| 1 MB | 40 | 100 | 0.40 | 3000 | 1500 | 2.00 |"), text);
  }

  @Test
  void theCrossoverChartHasAWriteAndAReadBarPerSize() {
    List<RatioChart.Bar> bars = SmallFilesSection.crossoverBars(outcome(true, run(2000, 8, 0)));
    assertEquals(2 * SmallFilesComparison.CROSSOVER_KB.size(), bars.size());
    assertEquals(new RatioChart.Bar("write 1 KB", 9.0), bars.get(0));
    assertEquals(new RatioChart.Bar("write 1 MB", 0.4), bars.get(SmallFilesComparison.CROSSOVER_KB.size() - 1));
    assertEquals(new RatioChart.Bar("read 1 KB", 2.0), bars.get(SmallFilesComparison.CROSSOVER_KB.size()));
  }

  private static String render(Outcome outcome) {
    StringBuilder md = new StringBuilder();
    SmallFilesSection.write(md, outcome, "crossover.png");
    return md.toString();
  }

  private static Target find(List<Target> targets, String measure) {
    return targets.stream().filter(target -> target.measure().equals(measure)).findFirst()
        .orElseThrow(() -> new AssertionError("no target '" + measure + "' in " + targets));
  }
}
