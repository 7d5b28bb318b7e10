package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/** renewLease: refreshes a client's lease; a client holding no lease has nothing to renew (as in HDFS). */
public final class RenewLeaseOp implements Operation<Void> {
  private final NamespaceServices services;
  private final String holder;

  public RenewLeaseOp(NamespaceServices services, String holder) {
    this.services = services;
    this.holder = holder;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "renewLease";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Optional<Lease> lease = context.cluster().leases().get(holder, LockMode.EXCLUSIVE);
    if (lease.isPresent()) {
      context.cluster().leases().put(new Lease(holder, services.now()));
    }
    return null;
  }
}
