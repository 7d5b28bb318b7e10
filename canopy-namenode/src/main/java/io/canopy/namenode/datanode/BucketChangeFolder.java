package io.canopy.namenode.datanode;

import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's folding of the replica bucket changes recorded by the database into the buckets (design 018), in
 * transactions of {@link #PER_TRANSACTION} changes at most and {@link #MAX_TRANSACTIONS_PER_RUN} per run, so that a
 * burst of writes (a subtree delete) is folded over a few runs without one long transaction. Not fenced by the term:
 * two folds at once (a leader handover) move disjoint changes, and the result is the same.
 */
public final class BucketChangeFolder implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(BucketChangeFolder.class);
  static final int PER_TRANSACTION = 20_000;
  static final int MAX_TRANSACTIONS_PER_RUN = 25;

  private final TransactionRunner runner;
  private final long intervalMs;

  public BucketChangeFolder(TransactionRunner runner, long intervalMs) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("bucket fold interval must be positive, got " + intervalMs);
    }
    this.runner = runner;
    this.intervalMs = intervalMs;
  }

  @Override
  public String name() {
    return "replica bucket folding";
  }

  @Override
  public long intervalMs() {
    return intervalMs;
  }

  @Override
  public boolean runsInSafeMode() {
    return true; // bookkeeping; full reports of a starting cluster read the buckets
  }

  @Override
  public void run(long term) throws IOException {
    foldAll(MAX_TRANSACTIONS_PER_RUN);
  }

  /** Folds until none are left or {@code maxTransactions} ran; answers how many changes were folded. */
  public long foldAll(int maxTransactions) throws IOException {
    long folded = 0;
    for (int i = 0; i < maxTransactions; i++) {
      int moved = runner.run(new FoldBucketChangesOp(PER_TRANSACTION));
      folded += moved;
      if (moved < PER_TRANSACTION) {
        return folded;
      }
    }
    LOG.info("Folded {} replica bucket changes in {} transactions; more are left for the next run", folded,
        maxTransactions);
    return folded;
  }
}
