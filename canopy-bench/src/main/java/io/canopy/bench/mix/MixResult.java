package io.canopy.bench.mix;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What one mix run measured. Immutable. Counts and latencies cover the recorded part only; warm-up failures are
 * kept apart ({@link #warmupFailures}) and included in {@link #totalFailures}, which a harness asserts is 0.
 *
 * @param uri the file system measured
 * @param mixDescription {@link OperationMix#describe()}
 * @param seed the run's seed
 * @param threads client threads
 * @param warmupSeconds warm-up length asked for
 * @param measuredSeconds from the end of the warm-up to the end of the last recorded operation
 * @param operations one entry per {@link MixOperation}, in enum order, zero-weight operations included
 * @param totalCount successful recorded operations
 * @param recordedFailures failed recorded operations
 * @param totalOpsPerSecond totalCount / measuredSeconds
 * @param totalLatency latency over every recorded operation
 * @param warmupOperations successful warm-up operations (not recorded)
 * @param warmupFailures failed warm-up operations
 * @param firstFailures the first failure messages (at most {@link MixSettings#maxFailureMessages()})
 * @param namespace what the working set started from: built or found, directories, files, seconds
 * @param directoriesAtEnd live directories in the working set after the run
 * @param filesAtEnd live files in the working set after the run
 */
public record MixResult(String uri, String mixDescription, long seed, int threads, double warmupSeconds,
    double measuredSeconds, List<OperationResult> operations, long totalCount, long recordedFailures,
    double totalOpsPerSecond, LatencyStatistics totalLatency, long warmupOperations, long warmupFailures,
    List<String> firstFailures, NamespaceSummary namespace, int directoriesAtEnd, int filesAtEnd) {

  public MixResult {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(mixDescription, "mixDescription");
    operations = List.copyOf(operations);
    Objects.requireNonNull(totalLatency, "totalLatency");
    firstFailures = List.copyOf(firstFailures);
    Objects.requireNonNull(namespace, "namespace");
  }

  /**
   * One operation type's figures.
   *
   * @param operation the type
   * @param count successful recorded operations
   * @param failures failed recorded operations
   * @param warmupFailures failed warm-up operations
   * @param opsPerSecond count / measured seconds
   * @param latency latency of the successful recorded operations
   */
  public record OperationResult(MixOperation operation, long count, long failures, long warmupFailures,
      double opsPerSecond, LatencyStatistics latency) {
    public OperationResult {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(latency, "latency");
    }

    public double p50Ms() {
      return latency.p50Ms();
    }

    public double p90Ms() {
      return latency.p90Ms();
    }

    public double p99Ms() {
      return latency.p99Ms();
    }

    public double meanMs() {
      return latency.meanMs();
    }
  }

  /**
   * The namespace the run started from.
   *
   * @param base base directory
   * @param shape {@link NamespaceShape#describe()}
   * @param built true if this run built it, false if it was found complete and listed
   * @param seconds building or listing time
   * @param directories directories at the start
   * @param files files at the start
   */
  public record NamespaceSummary(String base, String shape, boolean built, double seconds, int directories,
      int files) {
  }

  /** The figures of one operation type. */
  public OperationResult operation(MixOperation operation) {
    return operations.get(operation.ordinal());
  }

  /** Recorded and warm-up failures together; a valid run has none. */
  public long totalFailures() {
    return recordedFailures + warmupFailures;
  }

  /** A table for the console. */
  public String toText() {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "Mix run against %s: %d threads, seed %d, %.1f s recorded after %.1f s "
        + "warm-up%n", uri, threads, seed, measuredSeconds, warmupSeconds));
    text.append("mix ").append(mixDescription).append(System.lineSeparator());
    text.append(String.format(Locale.ROOT, "namespace %s (%s): %s in %.1f s: %d directories, %d files; after the "
        + "run %d directories, %d files%n", namespace.base(), namespace.shape(), namespace.built() ? "built"
            : "found", namespace.seconds(), namespace.directories(), namespace.files(), directoriesAtEnd,
        filesAtEnd));
    String header = String.format(Locale.ROOT, "%-16s %10s %8s %10s %9s %9s %9s %9s%n", "operation", "count",
        "failures", "ops/s", "p50 ms", "p90 ms", "p99 ms", "mean ms");
    text.append(header);
    for (OperationResult result : operations) {
      if (result.count() == 0 && result.failures() == 0 && result.warmupFailures() == 0) {
        continue;
      }
      appendRow(text, result.operation().label(), result.count(), result.failures() + result.warmupFailures(),
          result.opsPerSecond(), result.latency());
    }
    appendRow(text, "total", totalCount, totalFailures(), totalOpsPerSecond, totalLatency);
    text.append(String.format(Locale.ROOT, "warm-up: %d operations, %d failures (failures column: recorded + "
        + "warm-up)%n", warmupOperations, warmupFailures));
    if (!firstFailures.isEmpty()) {
      text.append("first failures:").append(System.lineSeparator());
      firstFailures.forEach(message -> text.append("  ").append(message).append(System.lineSeparator()));
    }
    return text.toString();
  }

  private static void appendRow(StringBuilder text, String label, long count, long failures, double opsPerSecond,
      LatencyStatistics latency) {
    text.append(String.format(Locale.ROOT, "%-16s %10d %8d %10.1f %9.3f %9.3f %9.3f %9.3f%n", label, count,
        failures, opsPerSecond, latency.p50Ms(), latency.p90Ms(), latency.p99Ms(), latency.meanMs()));
  }
}
