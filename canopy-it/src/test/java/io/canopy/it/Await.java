package io.canopy.it;

import java.time.Duration;

/** Polls a condition of a running cluster until it holds, failing the test with what it waited for. */
final class Await {
  /** How often a condition is polled. */
  static final Duration POLL = Duration.ofMillis(100);

  private Await() {
  }

  /** A cluster state a test waits for. */
  interface Condition {
    boolean holds() throws Exception;
  }

  /** Returns once {@code condition} holds; an AssertionError naming {@code what} after {@code timeout}. */
  static void until(String what, Duration timeout, Condition condition) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
      Thread.sleep(POLL.toMillis());
    }
  }
}
