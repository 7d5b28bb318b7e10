package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/**
 * The leader releases {@code holder}'s lease on one file (found by inode id, from the holder's lease path), fenced
 * by its term: the file is closed when its blocks allow, else its last block gets a new recovery id (a first or a
 * new attempt) and the file moves to the recovery holder ({@link LeaseRecovery}). A lease path that no longer
 * matches an open file of the holder is removed. A client holder's lease is read again first: one renewed since the
 * leader listed it as expired keeps its file.
 */
public final class ReleaseLeaseOp implements Operation<ReleaseOutcome> {
  private final NamespaceServices services;
  private final long inodeId;
  private final String holder;
  private final long renewedBeforeMs;
  private final long term;

  /** Releases the file if {@code holder}'s lease was last renewed before {@code renewedBeforeMs}. */
  public ReleaseLeaseOp(NamespaceServices services, long inodeId, String holder, long renewedBeforeMs, long term) {
    this.services = services;
    this.inodeId = inodeId;
    this.holder = holder;
    this.renewedBeforeMs = renewedBeforeMs;
    this.term = term;
  }

  @Override
  public boolean idempotent() {
    return true; // a re-run after a lost commit reply finds the recovery started and starts another: harmless
  }

  @Override
  public String name() {
    return "releaseLease";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileData();
  }

  @Override
  public ReleaseOutcome execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    Inode file = context.inodeLockedById();
    if (file == null || file.directory() || !file.underConstruction() || !holder.equals(file.clientName())) {
      context.cluster().leasePaths().delete(new LeasePath(holder, inodeId));
      return ReleaseOutcome.of(ReleaseOutcome.Kind.NOT_OPEN, file == null ? "the file is gone"
          : "the file is not open under " + holder + " (writer " + file.clientName() + ")");
    }
    if (!LeaseLimits.RECOVERY_HOLDER.equals(holder)) {
      Optional<Lease> lease = context.cluster().leases().get(holder, LockMode.NONE);
      if (lease.isPresent() && lease.get().lastRenewedMs() >= renewedBeforeMs) {
        return ReleaseOutcome.of(ReleaseOutcome.Kind.RENEWED, holder + " renewed its lease "
            + (services.now() - lease.get().lastRenewedMs()) + " ms ago");
      }
    }
    return LeaseRecovery.release(context, services, file, LeaseRecovery.Starter.LEADER);
  }
}
