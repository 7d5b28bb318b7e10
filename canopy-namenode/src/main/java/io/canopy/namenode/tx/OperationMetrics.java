package io.canopy.namenode.tx;

import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-operation counts: committed operations, database round trips and statements of their final attempt, retries,
 * failures, and calls answered from the retry cache; and each committed operation's latency (from the runner's start
 * to its commit, retries included), recorded without locks into an HdrHistogram {@link Recorder} whose interval
 * histograms the metrics take ({@link #intervalLatencies}).
 */
public final class OperationMetrics {
  /** Figures of one operation type. */
  public record Snapshot(long operations, long roundTrips, long statements, long retries, long failures,
      long retryCacheAnswers) {
    public double roundTripsPerOperation() {
      return operations == 0 ? 0 : (double) roundTrips / operations;
    }

    public double statementsPerOperation() {
      return operations == 0 ? 0 : (double) statements / operations;
    }

    public static final Snapshot ZERO = new Snapshot(0, 0, 0, 0, 0, 0);

    public Snapshot plus(Snapshot o) {
      return new Snapshot(operations + o.operations, roundTrips + o.roundTrips, statements + o.statements,
          retries + o.retries, failures + o.failures, retryCacheAnswers + o.retryCacheAnswers);
    }

    public Snapshot minus(Snapshot o) {
      return new Snapshot(operations - o.operations, roundTrips - o.roundTrips, statements - o.statements,
          retries - o.retries, failures - o.failures, retryCacheAnswers - o.retryCacheAnswers);
    }
  }

  private static final class Counters {
    final LongAdder operations = new LongAdder();
    final LongAdder roundTrips = new LongAdder();
    final LongAdder statements = new LongAdder();
    final LongAdder retryCacheAnswers = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder latencyMicros = new LongAdder();
    final Recorder latencies = new Recorder(LATENCY_DIGITS);
  }

  /** Significant digits of the latency histograms: 0.1% resolution. */
  private static final int LATENCY_DIGITS = 3;

  private final ConcurrentHashMap<String, Counters> counters = new ConcurrentHashMap<>();

  void committed(String operation, int roundTrips, int statements, int attempts, long elapsedNanos) {
    Counters c = counters.computeIfAbsent(operation, o -> new Counters());
    long micros = Math.max(0, elapsedNanos / 1_000);
    c.latencies.recordValue(micros);
    c.latencyMicros.add(micros);
    c.operations.increment();
    c.roundTrips.add(roundTrips);
    c.statements.add(statements);
    c.retries.add(attempts - 1L);
  }

  void failed(String operation, int attempts) {
    Counters c = counters.computeIfAbsent(operation, o -> new Counters());
    c.failures.increment();
    c.retries.add(attempts - 1L);
  }

  void answeredFromRetryCache(String operation) {
    counters.computeIfAbsent(operation, o -> new Counters()).retryCacheAnswers.increment();
  }

  /** Total latency, in microseconds, of each operation's committed runs: with the counts, their mean. */
  public Map<String, Long> latencyMicrosTotals() {
    Map<String, Long> result = new TreeMap<>();
    counters.forEach((name, c) -> result.put(name, c.latencyMicros.sum()));
    return result;
  }

  /**
   * Each operation's latencies (microseconds) since the previous call: a new interval starts for every operation
   * (one caller should take them, at a fixed period).
   */
  public Map<String, Histogram> intervalLatencies() {
    Map<String, Histogram> result = new TreeMap<>();
    counters.forEach((name, c) -> result.put(name, c.latencies.getIntervalHistogram()));
    return result;
  }

  public Map<String, Snapshot> snapshot() {
    Map<String, Snapshot> result = new TreeMap<>();
    counters.forEach((name, c) -> result.put(name, new Snapshot(c.operations.sum(), c.roundTrips.sum(),
        c.statements.sum(), c.retries.sum(), c.failures.sum(), c.retryCacheAnswers.sum())));
    return result;
  }
}
