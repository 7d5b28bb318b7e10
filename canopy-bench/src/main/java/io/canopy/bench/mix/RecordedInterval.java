package io.canopy.bench.mix;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.function.LongSupplier;

/**
 * Told when a run's recorded part starts (the warm-up is over) and when it has ended (every client thread is done),
 * so that something measured outside the clients, such as the servers' CPU time, covers exactly the interval whose
 * operations the run counts. Both calls come from the thread that runs the workload, not from a client thread.
 */
public interface RecordedInterval {
  /** Nothing to measure: the runner does not even wait for the warm-up to end. */
  RecordedInterval NONE = new RecordedInterval() {
    @Override
    public void started() {
    }

    @Override
    public void ended() {
    }

    @Override
    public void startAt(long warmupEndNanos, LongSupplier nanoClock) {
    }
  };

  void started() throws IOException;

  void ended() throws IOException;

  /** Waits until {@code nanoClock} reaches {@code warmupEndNanos}, then calls {@link #started()}. */
  default void startAt(long warmupEndNanos, LongSupplier nanoClock) throws IOException {
    long remainingNanos;
    while ((remainingNanos = warmupEndNanos - nanoClock.getAsLong()) > 0) {
      try {
        Thread.sleep(remainingNanos / 1_000_000, (int) (remainingNanos % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the warm-up to end");
      }
    }
    started();
  }
}
