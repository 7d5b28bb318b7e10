package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of every file's good replicas in key order, after {@code after} (null: from the first). Read only. */
final class GoodReplicaPageOp implements ClusterRead<List<Replica>> {
  private final ReplicaKey after;
  private final int limit;

  GoodReplicaPageOp(ReplicaKey after, int limit) {
    this.after = after;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "goodReplicaPage";
  }

  @Override
  public List<Replica> execute(TransactionContext context) throws IOException {
    return context.cluster().replicas().good(after, limit);
  }
}
