package io.canopy.namenode.tx;

import io.canopy.namenode.NameNodeConfig;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rows of subtrees the namenode holds in memory, all its operations together: the inodes a transaction reads as
 * a subtree ({@link TransactionContext#subtree}) and the block-level rows of the files a recursive delete removes.
 * Bounded by {@link NameNodeConfig#SUBTREE_MAX_ROWS}, so neither one large subtree nor several at once can run the
 * namenode out of memory. A transaction's rows are given back when it ends, committed or not.
 */
public final class SubtreeRows {
  private final long max;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  public SubtreeRows(long max) {
    if (max < 1) {
      throw new IllegalArgumentException(NameNodeConfig.SUBTREE_MAX_ROWS + " must be at least 1, got " + max);
    }
    this.max = max;
  }

  /** The most rows held at once. */
  public long max() {
    return max;
  }

  /** Rows held now by every transaction. */
  public long held() {
    return held.get();
  }

  /** The most rows held at once since the namenode started: what subtrees cost its memory at their worst. */
  public long peak() {
    return peak.get();
  }

  /** Takes {@code rows} more when they fit under the maximum with what is held; false (and nothing taken) if not. */
  public boolean tryTake(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("cannot take " + rows + " rows");
    }
    while (true) {
      long now = held.get();
      if (now + rows > max) {
        return false;
      }
      if (held.compareAndSet(now, now + rows)) {
        peak.accumulateAndGet(now + rows, Math::max);
        return true;
      }
    }
  }

  /** Gives back rows taken with {@link #tryTake}. */
  public void give(long rows) {
    long left = held.addAndGet(-rows);
    if (rows < 0 || left < 0) {
      throw new IllegalStateException("gave back " + rows + " rows, leaving " + left + ": more than was taken");
    }
  }
}
