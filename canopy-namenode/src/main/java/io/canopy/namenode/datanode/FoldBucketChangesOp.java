package io.canopy.namenode.datanode;

import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * One batch of the leader's folding of replica bucket changes into the buckets (design 018): moves up to a bound of
 * them and answers how many it moved. Locks no inode: it changes no file's metadata, and a full report reading the
 * buckets sees the batch either pending or folded, with the same result.
 */
public final class FoldBucketChangesOp implements Operation<Integer> {
  private final int limit;

  public FoldBucketChangesOp(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("bucket changes folded per transaction must be positive, got " + limit);
    }
    this.limit = limit;
  }

  @Override
  public String name() {
    return "foldBucketChanges";
  }

  @Override
  public boolean idempotent() {
    return true; // folding again what is left is what a retry must do
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public Integer execute(TransactionContext context) throws IOException {
    return context.cluster().replicas().foldBucketChanges(limit);
  }
}
