package io.canopy.namenode.ops;

import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each namenode's cleanup of its own stale subtree flags (design 017): a flag of this namenode that none of its
 * running operations holds (the clearing after a failure failed too, or the commit reply of the first transaction
 * was lost) would stop everything below it while this namenode lives, since other namenodes ignore only the flags of
 * dead ones. Such a flag older than {@code graceMs} (the time between the flag's commit and the operation noting
 * it) is cleared with its row.
 */
public final class OwnSubtreeLockCleaner implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(OwnSubtreeLockCleaner.class);
  /** Running operations read per run at most. */
  static final int MAX_PER_RUN = 1_000;

  private final TransactionRunner runner;
  private final SubtreeOperations operations;
  private final LongSupplier namenodeId;
  private final LongSupplier clockMs;
  private final long graceMs;

  public OwnSubtreeLockCleaner(TransactionRunner runner, SubtreeOperations operations, LongSupplier namenodeId,
      LongSupplier clockMs, long graceMs) {
    this.runner = runner;
    this.operations = operations;
    this.namenodeId = namenodeId;
    this.clockMs = clockMs;
    this.graceMs = graceMs;
  }

  @Override
  public void run() {
    try {
      long self = namenodeId.getAsLong();
      for (SubtreeOperation row : runner.run(new RunningSubtreeOperationsOp(MAX_PER_RUN))) {
        if (row.namenodeId() == self && !operations.isRunning(row.rootId())
            && row.startedMs() < clockMs.getAsLong() - graceMs) {
          runner.run(new SubtreeUnlockOp(row.rootId(), self, row.startedMs()));
          LOG.info("Cleared this namenode's stale subtree lock on {} (inode {}), held by no running operation",
              row.path(), row.rootId());
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Own subtree lock cleanup failed; the next run retries: {}", e.getMessage());
    }
  }
}
