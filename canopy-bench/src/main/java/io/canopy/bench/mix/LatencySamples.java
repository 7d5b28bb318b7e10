package io.canopy.bench.mix;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Latencies of one operation type recorded by one client thread: not thread-safe, owned by its thread until the
 * run ends. The array grows by doubling up to {@code capacity}; after that it is a uniform reservoir (algorithm R:
 * the n-th latency replaces a random slot with probability capacity / n), so memory stays bounded however long the
 * run while the percentiles stay unbiased. Count, sum and maximum are exact.
 */
final class LatencySamples {
  private static final int INITIAL_CAPACITY = 256;

  private final int capacity;
  private final Random reservoirRandom;
  private long[] samples;
  private int size;
  private long count;
  private long sumNanos;
  private long maxNanos;

  /** {@code reservoirRandom} is only drawn from once the cap is reached (seeded, separate from the op sequence). */
  LatencySamples(int capacity, Random reservoirRandom) {
    if (capacity < 1) {
      throw new IllegalArgumentException("latency sample capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
    this.reservoirRandom = reservoirRandom;
    this.samples = new long[Math.min(capacity, INITIAL_CAPACITY)];
  }

  void record(long latencyNanos) {
    count++;
    sumNanos += latencyNanos;
    maxNanos = Math.max(maxNanos, latencyNanos);
    if (size < capacity) {
      if (size == samples.length) {
        samples = Arrays.copyOf(samples, (int) Math.min(capacity, 2L * samples.length));
      }
      samples[size++] = latencyNanos;
      return;
    }
    long slot = (long) (reservoirRandom.nextDouble() * count);
    if (slot < capacity) {
      samples[(int) slot] = latencyNanos;
    }
  }

  long count() {
    return count;
  }

  /** Statistics over several threads' samples of the same operation type (or of several types). */
  static LatencyStatistics merge(List<LatencySamples> parts) {
    long count = 0;
    long sum = 0;
    long max = 0;
    long sampleCount = 0;
    for (LatencySamples part : parts) {
      count += part.count;
      sum += part.sumNanos;
      max = Math.max(max, part.maxNanos);
      sampleCount += part.size;
    }
    if (sampleCount > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(sampleCount + " latency samples do not fit one array; lower the sample cap");
    }
    long[] all = new long[(int) sampleCount];
    int offset = 0;
    for (LatencySamples part : parts) {
      System.arraycopy(part.samples, 0, all, offset, part.size);
      offset += part.size;
    }
    return LatencyStatistics.of(all, all.length, count, sum, max);
  }
}
