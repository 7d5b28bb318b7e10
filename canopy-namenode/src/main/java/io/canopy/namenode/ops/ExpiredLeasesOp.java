package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of leases last renewed before a time, oldest first (the lease monitor's scan; no locks). */
public final class ExpiredLeasesOp implements ClusterRead<List<Lease>> {
  private final long renewedBeforeMs;
  private final Lease startAfter;
  private final int limit;

  public ExpiredLeasesOp(long renewedBeforeMs, Lease startAfter, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a page of leases needs a positive limit, got " + limit);
    }
    this.renewedBeforeMs = renewedBeforeMs;
    this.startAfter = startAfter;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "expiredLeases";
  }

  @Override
  public List<Lease> execute(TransactionContext context) throws IOException {
    return context.cluster().leases().renewedBefore(renewedBeforeMs, startAfter, limit);
  }
}
