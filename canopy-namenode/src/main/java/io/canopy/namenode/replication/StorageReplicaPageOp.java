package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of the replicas recorded on a storage, in (inode, block) order after {@code after}. Read only. */
final class StorageReplicaPageOp implements ClusterRead<List<Replica>> {
  private final String storageId;
  private final ReplicaKey after;
  private final int limit;

  StorageReplicaPageOp(String storageId, ReplicaKey after, int limit) {
    this.storageId = storageId;
    this.after = after;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "storageReplicaPage";
  }

  @Override
  public List<Replica> execute(TransactionContext context) throws IOException {
    return context.cluster().replicas().onStorage(storageId, after, limit);
  }
}
