package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.ReplicaWithBlock;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * The replicas recorded on one storage with their blocks, to reconcile a full block report against: those of some
 * hash buckets ({@link io.canopy.metadata.ReplicaBuckets}), or all of them.
 */
public final class StorageReplicasOp implements Operation<List<ReplicaWithBlock>> {
  private final String storageId;
  private final Collection<Integer> buckets;

  /** The replicas of {@code buckets} only; null: every replica of the storage. */
  public StorageReplicasOp(String storageId, Collection<Integer> buckets) {
    this.storageId = storageId;
    this.buckets = buckets;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "storageReplicas";
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
  public List<ReplicaWithBlock> execute(TransactionContext context) throws IOException {
    return buckets == null ? context.cluster().replicas().onStorageWithBlocks(storageId)
        : context.cluster().replicas().onStorageWithBlocks(storageId, buckets);
  }
}
