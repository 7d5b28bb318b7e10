package io.canopy.namenode.ops;

/**
 * How long a complete() waits, once this namenode has received the report of the file's last block that another
 * namenode applies (design 018), before it expects that namenode's commit to show and runs complete. Learnt from
 * outcomes: each complete that found the commit on its first try multiplies the wait by {@value #SHRINK}, each that
 * did not by {@value #GROW}; at equilibrium about nine first tries in ten find the commit
 * (0.9 · ln(1/0.97) = 0.1 · ln(1.3)). The wait stays within [{@value #MIN_MICROS}, {@value #MAX_MICROS}] µs.
 *
 * <p>Updates from concurrent handlers may overwrite one another: the estimate then loses a step, which the next
 * outcomes make up.
 */
final class CommitLagEstimate {
  static final long MIN_MICROS = 500;
  static final long MAX_MICROS = 64_000;
  static final long INITIAL_MICROS = 4_000;
  static final double SHRINK = 0.97;
  static final double GROW = 1.3;

  private volatile double micros;

  CommitLagEstimate() {
    this(INITIAL_MICROS);
  }

  CommitLagEstimate(long initialMicros) {
    this.micros = bounded(initialMicros);
  }

  /** The wait to use now, in nanoseconds. */
  long waitNanos() {
    return (long) (micros * 1_000);
  }

  /** A complete run after the wait found the other namenode's commit. */
  void foundOnFirstTry() {
    micros = bounded(micros * SHRINK);
  }

  /** A complete run after the wait answered "not yet": the commit came later. */
  void missedOnFirstTry() {
    micros = bounded(micros * GROW);
  }

  private static double bounded(double value) {
    return Math.max(MIN_MICROS, Math.min(MAX_MICROS, value));
  }
}
