package io.canopy.bench.mix;

import java.util.Arrays;
import java.util.Locale;

/**
 * Latency figures of one operation type (or of all), in milliseconds.
 *
 * <p>Percentiles use the nearest-rank definition: the p-th percentile of n sorted samples is the sample at rank
 * ceil(p / 100 * n) (1-based), so it is always a measured value; for the samples 1..100 ms, p50 = 50, p90 = 90 and
 * p99 = 99. The mean and the maximum are exact over every recorded operation even when the samples are a reservoir
 * (see {@link LatencySamples}).
 *
 * @param count recorded operations
 * @param samples latencies the percentiles were computed from (= count unless the sample cap was reached)
 * @param p50Ms median
 * @param p90Ms 90th percentile
 * @param p99Ms 99th percentile
 * @param meanMs mean over every recorded operation
 * @param maxMs slowest recorded operation
 */
public record LatencyStatistics(long count, long samples, double p50Ms, double p90Ms, double p99Ms, double meanMs,
    double maxMs) {
  private static final double NANOS_PER_MILLISECOND = 1_000_000.0;

  /** No operations: every figure 0. */
  public static final LatencyStatistics EMPTY = new LatencyStatistics(0, 0, 0, 0, 0, 0, 0);

  /** Statistics of exactly these latencies (nanoseconds). */
  public static LatencyStatistics ofNanos(long... latenciesNanos) {
    long sum = 0;
    long max = 0;
    for (long latency : latenciesNanos) {
      sum += latency;
      max = Math.max(max, latency);
    }
    return of(latenciesNanos.clone(), latenciesNanos.length, latenciesNanos.length, sum, max);
  }

  /**
   * Statistics from {@code sampleCount} samples in {@code samplesNanos} (sorted in place) of {@code count}
   * operations whose latencies sum to {@code sumNanos} and peak at {@code maxNanos}.
   */
  static LatencyStatistics of(long[] samplesNanos, int sampleCount, long count, long sumNanos, long maxNanos) {
    if (sampleCount < 0 || sampleCount > samplesNanos.length || sampleCount > count) {
      throw new IllegalArgumentException("sampleCount " + sampleCount + " outside [0, min(" + samplesNanos.length
          + ", " + count + ")]");
    }
    if (count == 0) {
      return EMPTY;
    }
    if (sampleCount == 0) {
      throw new IllegalArgumentException("no samples for " + count + " operations");
    }
    Arrays.sort(samplesNanos, 0, sampleCount);
    return new LatencyStatistics(count, sampleCount,
        percentileNanos(samplesNanos, sampleCount, 50) / NANOS_PER_MILLISECOND,
        percentileNanos(samplesNanos, sampleCount, 90) / NANOS_PER_MILLISECOND,
        percentileNanos(samplesNanos, sampleCount, 99) / NANOS_PER_MILLISECOND,
        sumNanos / NANOS_PER_MILLISECOND / count, maxNanos / NANOS_PER_MILLISECOND);
  }

  /** Nearest-rank percentile of the first {@code length} values of an ascending array. */
  static long percentileNanos(long[] sortedNanos, int length, double percentile) {
    if (length <= 0 || percentile <= 0 || percentile > 100) {
      throw new IllegalArgumentException("percentile " + percentile + " of " + length + " samples");
    }
    // The epsilon keeps 0.9 * 100 = 90.00000000000001 from rounding up to rank 91.
    int rank = (int) Math.ceil(percentile / 100.0 * length - 1e-9);
    return sortedNanos[Math.max(1, rank) - 1];
  }

  /** {@code p50 1.234 ms, p90 ..., p99 ..., mean ..., max ...}. */
  public String describe() {
    return String.format(Locale.ROOT, "p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, mean %.3f ms, max %.3f ms", p50Ms,
        p90Ms, p99Ms, meanMs, maxMs);
  }
}
