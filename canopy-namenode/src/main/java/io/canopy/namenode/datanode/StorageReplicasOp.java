package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.ReplicaWithBlock;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** The replicas recorded on one storage with their blocks, to reconcile a full block report against. */
public final class StorageReplicasOp implements Operation<List<ReplicaWithBlock>> {
  private final String storageId;

  public StorageReplicasOp(String storageId) {
    this.storageId = storageId;
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
    return context.cluster().replicas().onStorageWithBlocks(storageId);
  }
}
