package io.canopy.bench.mix;

import java.util.List;
import java.util.Objects;

/**
 * What one timed run of a file operation measured ({@link FileLoop}: create + write + close, or open + read +
 * close), the recorded part only; warm-up failures apart.
 *
 * @param threads client threads
 * @param measuredSeconds from the end of the warm-up to the end of the last recorded file
 * @param files files done (written, or read and checked) in the recorded part
 * @param filesPerSecond files / measuredSeconds
 * @param latency of one file: the whole operation (create + write + close, or open + read + close)
 * @param recordedFailures failed files in the recorded part (a read whose bytes did not match is one)
 * @param warmupFailures failed files in the warm-up
 * @param firstFailures the first failure messages
 */
public record FileRunResult(int threads, double measuredSeconds, long files, double filesPerSecond,
    LatencyStatistics latency, long recordedFailures, long warmupFailures, List<String> firstFailures) {
  public FileRunResult {
    Objects.requireNonNull(latency, "latency");
    firstFailures = List.copyOf(firstFailures);
  }

  /** A run that could not start, e.g. a read phase with no file to read: one failure, no figures. */
  public static FileRunResult notRun(int threads, String why) {
    return new FileRunResult(threads, 0, 0, 0, LatencyStatistics.EMPTY, 1, 0, List.of(why));
  }

  /** Recorded and warm-up failures together; a valid run has none. */
  public long totalFailures() {
    return recordedFailures + warmupFailures;
  }
}
