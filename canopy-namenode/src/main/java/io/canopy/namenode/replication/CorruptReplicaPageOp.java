package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of the corrupt replicas in key order, after {@code after} (null: from the start). Read only. */
public final class CorruptReplicaPageOp implements ClusterRead<List<Replica>> {
  private final ReplicaKey after;
  private final int limit;

  public CorruptReplicaPageOp(ReplicaKey after, int limit) {
    this.after = after;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "corruptReplicaPage";
  }

  @Override
  public List<Replica> execute(TransactionContext context) throws IOException {
    return context.cluster().replicas().corrupt(after, limit);
  }
}
