package io.canopy.namenode.tx;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Per-operation counts: committed operations, database round trips of their final attempt, retries. */
public final class OperationMetrics {
  /** Figures of one operation type. */
  public record Snapshot(long operations, long roundTrips, long retries, long failures) {
    public double roundTripsPerOperation() {
      return operations == 0 ? 0 : (double) roundTrips / operations;
    }
  }

  private static final class Counters {
    final LongAdder operations = new LongAdder();
    final LongAdder roundTrips = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder failures = new LongAdder();
  }

  private final ConcurrentHashMap<String, Counters> counters = new ConcurrentHashMap<>();

  void committed(String operation, int roundTrips, int attempts) {
    Counters c = counters.computeIfAbsent(operation, o -> new Counters());
    c.operations.increment();
    c.roundTrips.add(roundTrips);
    c.retries.add(attempts - 1L);
  }

  void failed(String operation, int attempts) {
    Counters c = counters.computeIfAbsent(operation, o -> new Counters());
    c.failures.increment();
    c.retries.add(attempts - 1L);
  }

  public Map<String, Snapshot> snapshot() {
    Map<String, Snapshot> result = new TreeMap<>();
    counters.forEach((name, c) -> result.put(name, new Snapshot(c.operations.sum(), c.roundTrips.sum(),
        c.retries.sum(), c.failures.sum())));
    return result;
  }
}
