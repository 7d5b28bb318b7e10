package io.canopy.namenode.leader;

import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.ops.ClearDeadSubtreeLockOp;
import io.canopy.namenode.ops.RunningSubtreeOperationsOp;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's periodic cleanup of subtree operations whose namenode died (design 017): their flags are already
 * ignored by every operation that meets them; this removes them and their rows, so the flags of namenodes dead long
 * ago do not stay in the namespace until someone deletes or takes over their directories.
 */
public final class DeadSubtreeLockCleaner implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(DeadSubtreeLockCleaner.class);
  /** Running operations read per run at most. */
  static final int MAX_PER_RUN = 1_000;

  private final TransactionRunner runner;
  private final LongPredicate namenodeAlive;
  private final long intervalMs;

  public DeadSubtreeLockCleaner(TransactionRunner runner, LongPredicate namenodeAlive, long intervalMs) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("subtree lock cleanup interval must be positive, got " + intervalMs);
    }
    this.runner = runner;
    this.namenodeAlive = namenodeAlive;
    this.intervalMs = intervalMs;
  }

  @Override
  public String name() {
    return "dead subtree locks";
  }

  @Override
  public long intervalMs() {
    return intervalMs;
  }

  @Override
  public boolean runsInSafeMode() {
    return true; // namespace bookkeeping, no block housekeeping
  }

  @Override
  public void run(long term) throws IOException {
    for (SubtreeOperation running : runner.run(new RunningSubtreeOperationsOp(MAX_PER_RUN))) {
      if (!namenodeAlive.test(running.namenodeId())) {
        boolean cleared = runner.run(new ClearDeadSubtreeLockOp(running, term));
        LOG.info("Subtree {} of {} (inode {}) by namenode {}, which is dead: {}", running.operation(), running.path(),
            running.rootId(), running.namenodeId(), cleared ? "flag cleared" : "row removed");
      }
    }
  }
}
