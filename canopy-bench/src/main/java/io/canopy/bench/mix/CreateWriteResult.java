package io.canopy.bench.mix;

import java.util.List;
import java.util.Objects;

/**
 * What one {@link CreateWriteRunner} run measured (the recorded part only; warm-up failures apart).
 *
 * @param threads client threads
 * @param measuredSeconds from the end of the warm-up to the end of the last recorded file
 * @param files files created, written and closed in the recorded part
 * @param filesPerSecond files / measuredSeconds
 * @param latency of one file: create + write + close
 * @param recordedFailures failed files in the recorded part
 * @param warmupFailures failed files in the warm-up
 * @param firstFailures the first failure messages
 */
public record CreateWriteResult(int threads, double measuredSeconds, long files, double filesPerSecond,
    LatencyStatistics latency, long recordedFailures, long warmupFailures, List<String> firstFailures) {
  public CreateWriteResult {
    Objects.requireNonNull(latency, "latency");
    firstFailures = List.copyOf(firstFailures);
  }

  /** Recorded and warm-up failures together; a valid run has none. */
  public long totalFailures() {
    return recordedFailures + warmupFailures;
  }
}
