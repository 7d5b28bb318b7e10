package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyStatisticsTest {
  private static final long MS = 1_000_000L;

  @Test
  void oneToHundredMillisecondsGiveTheNearestRankPercentiles() {
    List<Long> values = new ArrayList<>();
    for (long i = 1; i <= 100; i++) {
      values.add(i * MS);
    }
    Collections.shuffle(values, new Random(1));
    LatencyStatistics statistics = LatencyStatistics.ofNanos(values.stream().mapToLong(Long::longValue).toArray());
    assertEquals(100, statistics.count());
    assertEquals(50.0, statistics.p50Ms());
    assertEquals(90.0, statistics.p90Ms());
    assertEquals(99.0, statistics.p99Ms());
    assertEquals(50.5, statistics.meanMs(), 1e-12);
    assertEquals(100.0, statistics.maxMs());
  }

  @Test
  void smallSamplesRoundTheRankUp() {
    LatencyStatistics ten = LatencyStatistics.ofNanos(10 * MS, 9 * MS, 8 * MS, 7 * MS, 6 * MS, 5 * MS, 4 * MS,
        3 * MS, 2 * MS, 1 * MS);
    assertEquals(5.0, ten.p50Ms());
    assertEquals(9.0, ten.p90Ms());
    assertEquals(10.0, ten.p99Ms());
    assertEquals(5.5, ten.meanMs(), 1e-12);

    LatencyStatistics three = LatencyStatistics.ofNanos(3 * MS, 1 * MS, 2 * MS);
    assertEquals(2.0, three.p50Ms());
    assertEquals(3.0, three.p90Ms());
    assertEquals(3.0, three.p99Ms());

    LatencyStatistics one = LatencyStatistics.ofNanos(1_500_000);
    assertEquals(1.5, one.p50Ms());
    assertEquals(1.5, one.p99Ms());
    assertEquals(1.5, one.meanMs());
  }

  @Test
  void noOperationsGiveZeros() {
    assertEquals(LatencyStatistics.EMPTY, LatencyStatistics.ofNanos());
    assertEquals(LatencyStatistics.EMPTY, LatencySamples.merge(List.of(new LatencySamples(4, new Random(1)))));
  }

  @Test
  void samplesMergedOverThreadsAreExactBelowTheCap() {
    LatencySamples first = new LatencySamples(1000, new Random(1));
    LatencySamples second = new LatencySamples(1000, new Random(2));
    for (long i = 1; i <= 100; i++) {
      (i % 2 == 0 ? first : second).record(i * MS);
    }
    LatencyStatistics merged = LatencySamples.merge(List.of(first, second));
    assertEquals(100, merged.count());
    assertEquals(100, merged.samples());
    assertEquals(50.0, merged.p50Ms());
    assertEquals(90.0, merged.p90Ms());
    assertEquals(99.0, merged.p99Ms());
    assertEquals(50.5, merged.meanMs(), 1e-12);
  }

  @Test
  void aboveTheCapTheReservoirKeepsMeanExactAndPercentilesClose() {
    LatencySamples samples = new LatencySamples(10_000, new Random(3));
    int operations = 1_000_000;
    for (int i = 1; i <= operations; i++) {
      samples.record(i * 1000L); // 1 µs .. 1000 ms, uniform
    }
    LatencyStatistics statistics = LatencySamples.merge(List.of(samples));
    assertEquals(operations, statistics.count());
    assertEquals(10_000, statistics.samples());
    assertEquals((operations + 1) / 2.0 / 1000.0, statistics.meanMs(), 1e-9);
    assertEquals(1000.0, statistics.maxMs());
    // A uniform sample of 10 000: the percentiles land within a few tenths of a percent of the truth.
    assertEquals(500.0, statistics.p50Ms(), 15.0);
    assertEquals(900.0, statistics.p90Ms(), 10.0);
    assertEquals(990.0, statistics.p99Ms(), 5.0);
  }
}
