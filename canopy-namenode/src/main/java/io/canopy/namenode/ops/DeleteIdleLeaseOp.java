package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/**
 * The leader deletes a holder's lease row once it is past the hard limit and the holder has no open file left,
 * fenced by its term. The row is locked and both conditions checked under the lock: a create that renews the
 * lease (an upsert, which waits for the lock) either commits first, and the lease is no longer expired, or after,
 * and re-creates the row. A create skips renewing only a lease renewed within the last second, which is never
 * past the hard limit ({@link io.canopy.namenode.fs.LeaseLimits#MIN_HARD_LIMIT_MS}).
 */
public final class DeleteIdleLeaseOp implements Operation<Boolean> {
  private final String holder;
  private final long renewedBeforeMs;
  private final long term;

  public DeleteIdleLeaseOp(String holder, long renewedBeforeMs, long term) {
    this.holder = holder;
    this.renewedBeforeMs = renewedBeforeMs;
    this.term = term;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "deleteIdleLease";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ClusterTables transaction = context.cluster();
    LeaderFence.check(transaction.variables(), term);
    Optional<Lease> lease = transaction.leases().get(holder, LockMode.EXCLUSIVE);
    if (lease.isEmpty() || lease.get().lastRenewedMs() >= renewedBeforeMs) {
      return false;
    }
    if (!transaction.leasePaths().ofHolder(holder, Long.MIN_VALUE, 1).isEmpty()) {
      return false;
    }
    transaction.leases().delete(holder);
    return true;
  }
}
