package io.canopy.namenode.datanode;

import io.canopy.metadata.ReplicaBuckets;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Map;

/** The hash buckets recorded for one storage's replicas, which a full block report is compared with first. */
public final class StorageBucketsOp implements Operation<Map<Integer, ReplicaBuckets.Bucket>> {
  private final String storageId;

  public StorageBucketsOp(String storageId) {
    this.storageId = storageId;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "storageBuckets";
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
  public Map<Integer, ReplicaBuckets.Bucket> execute(TransactionContext context) throws IOException {
    return context.cluster().replicas().buckets(storageId);
  }
}
