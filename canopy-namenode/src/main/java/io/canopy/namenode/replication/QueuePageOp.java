package io.canopy.namenode.replication;

import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** One page of the replication queue in queue order, after {@code after} (null: from the start). Read only. */
public final class QueuePageOp implements ClusterRead<List<QueuedBlock>> {
  private final QueuedBlock after;
  private final int limit;

  public QueuePageOp(QueuedBlock after, int limit) {
    this.after = after;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "replicationQueuePage";
  }

  @Override
  public List<QueuedBlock> execute(TransactionContext context) throws IOException {
    return context.cluster().replicationQueue().page(after, limit);
  }
}
