package io.canopy.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Everything one harness run measured, and where: the report is written from this alone. */
record BenchResults(BenchMode mode, long seed, MachineInfo machine, Instant started, Duration took, String pinning,
    Map<String, String> durability, Map<String, String> clusterSettings, int datanodes,
    List<NnThroughputComparison.Row> nnThroughput, OpenDepthComparison.Outcome openDepth,
    List<MixComparison.Outcome> mixes, JfrProfile.Summary profile, String profileNote) {

  long failures() {
    long failures = 0;
    for (MixComparison.Outcome outcome : mixes) {
      failures += outcome.failures();
    }
    return failures;
  }
}
