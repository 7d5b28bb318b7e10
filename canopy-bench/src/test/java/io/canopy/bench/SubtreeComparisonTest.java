package io.canopy.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.bench.SubtreeComparison.Clients;
import io.canopy.bench.SubtreeComparison.Disturbance;
import io.canopy.bench.SubtreeComparison.Outcome;
import io.canopy.bench.SubtreeComparison.Timing;
import io.canopy.bench.mix.LatencyStatistics;
import io.canopy.bench.mix.CallWindows.WindowResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The subtree section's figures: ratios, the throughput kept by the clients in the parent and by the Spotify mix
 * elsewhere, issue 16's target met or missed, and the page.
 */
class SubtreeComparisonTest {
  private static final BenchMode.Subtree SETTINGS = new BenchMode.Subtree(List.of(10_000), 200_000, 4, 8, 0, 1000,
      100, 4, 4);

  private static WindowResult window(double opsPerSecond) {
    return new WindowResult(2, (long) (2 * opsPerSecond), opsPerSecond,
        LatencyStatistics.ofNanos(1_000_000, 2_000_000, 90_000_000), 0, List.of());
  }

  private static Clients clients(double opsPerSecond, double kept) {
    return new Clients(window(opsPerSecond), window(opsPerSecond * kept));
  }

  private static Outcome outcome(double canopyKept, double hdfsKept) {
    return outcome(canopyKept, hdfsKept, 0.9, 0.02);
  }

  private static Outcome outcome(double canopyKept, double hdfsKept, double canopyMixKept, double hdfsMixKept) {
    return new Outcome(SETTINGS, 8, List.of(new Timing(SubtreeComparison.MV, 10_000, "Canopy", 0.01),
        new Timing(SubtreeComparison.MV, 10_000, "HDFS", 0.02), new Timing(SubtreeComparison.RM, 10_000, "Canopy", 2),
        new Timing(SubtreeComparison.RM, 10_000, "HDFS", Double.NaN)),
        List.of(new Disturbance("Canopy", 200_000, 4, clients(1000, canopyKept), clients(400, canopyMixKept),
                ServerCpu.Usage.NONE),
            new Disturbance("HDFS", 200_000, 1, clients(2000, hdfsKept), clients(800, hdfsMixKept),
                ServerCpu.Usage.NONE)),
        1, List.of("HDFS: rm -r /x failed: boom"));
  }

  @Test
  void ratiosAreHdfsTimeOverCanopyTimeAndAFailedCallHasNone() {
    Outcome outcome = outcome(0.6, 0.1);
    assertEquals(2.0, outcome.ratio(SubtreeComparison.MV, 10_000), 1e-9);
    assertTrue(Double.isNaN(outcome.ratio(SubtreeComparison.RM, 10_000)));
    assertTrue(Double.isNaN(outcome.seconds(SubtreeComparison.MV, 100_000, "Canopy")), "a size not measured");
  }

  @Test
  void theTargetIsHalfOfCanopysUndisturbedThroughput() {
    assertTrue(outcome(0.5, 0.1).targetMet());
    assertFalse(outcome(0.49, 0.9).targetMet(), "HDFS keeping more does not meet Canopy's target");
    assertEquals(0.1, outcome(0.6, 0.1).disturbance("HDFS").parent().kept(), 1e-9);
    assertFalse(outcome(0.4, 0.1, 0.9, 0.9).targetMet(), "the target is the parent clients': the mix does not meet it");
    assertTrue(outcome(0.5, 0.1, 0.1, 0.1).targetMet(), "nor does the mix miss it");
    Outcome nothingUndisturbed = new Outcome(SETTINGS, 8, List.of(), List.of(new Disturbance("Canopy", 200_000, 4,
        new Clients(window(0), window(10)), clients(10, 1), ServerCpu.Usage.NONE)), 0, List.of());
    assertFalse(nothingUndisturbed.targetMet(), "no undisturbed throughput: nothing to keep, not met");
    Outcome failedDelete = new Outcome(SETTINGS, 8, List.of(), List.of(new Disturbance("Canopy", 200_000, Double.NaN,
        clients(1000, 1), clients(10, 1), ServerCpu.Usage.NONE)), 1, List.of("Canopy: rm -r failed"));
    assertFalse(failedDelete.targetMet(), "a delete that failed says nothing of the clients beside it");
  }

  @Test
  void thePageShowsEveryRowTheTargetAndTheFailures() {
    StringBuilder md = new StringBuilder();
    SubtreeSection.write(md, outcome(0.75, 0.05));
    String text = md.toString();
    assertTrue(text.contains("| mv | 10,000 | 0.010 | 0.020 | 2.00 |"), text);
    assertTrue(text.contains("| rm -r | 10,000 | 2.000 | failed | n/a |"), text);
    assertTrue(text.contains("| Canopy | in the parent | during the delete | 2.00 | 1500 | 750 | 2.00 | 90.00 | 90.00 "
        + "| 0 | 75% |"), text);
    assertTrue(text.contains("| HDFS | Spotify mix elsewhere | undisturbed | 2.00 | 1600 | 800 | 2.00 | 90.00 | "
        + "90.00 | 0 |  |"), text);
    assertTrue(text.contains("| HDFS | Spotify mix elsewhere | during the delete | 2.00 | 32 | 16 | 2.00 | 90.00 | "
        + "90.00 | 0 | 2% |"), text);
    assertTrue(text.contains("| throughput kept in the parent | 75% | 5% |"), text);
    assertTrue(text.contains("| throughput kept by the Spotify mix elsewhere | 90% | 2% |"), text);
    assertTrue(text.contains("Canopy keeps >= 50% of its clients' undisturbed throughput during the delete: **met** "
        + "(kept 75% in the parent; the Spotify mix elsewhere kept 90% on Canopy, 2% on HDFS)"), text);
    assertFalse(text.contains("the issue sets it for"), "200,000 files is the issue's size:\n" + text);
    assertTrue(text.contains("Failed operations in the whole section: 1.\n- HDFS: rm -r /x failed: boom"), text);
  }
}
