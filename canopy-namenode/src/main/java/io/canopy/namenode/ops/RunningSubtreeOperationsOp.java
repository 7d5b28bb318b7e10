package io.canopy.namenode.ops;

import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** The running subtree operations (design 017), read without locks, at most {@code limit}. */
public final class RunningSubtreeOperationsOp implements Operation<List<SubtreeOperation>> {
  private final int limit;

  public RunningSubtreeOperationsOp(int limit) {
    this.limit = limit;
  }

  @Override
  public String name() {
    return "runningSubtreeOperations";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public List<SubtreeOperation> execute(TransactionContext context) throws IOException {
    return context.cluster().subtreeOperations().all(limit);
  }
}
