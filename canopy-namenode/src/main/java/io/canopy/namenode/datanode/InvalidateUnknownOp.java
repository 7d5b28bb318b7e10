package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Schedules deletion of replicas whose blocks belong to no file: leader work, fenced by the leader term. The block
 * lookup is read again here, so a block that belongs to a file after all is left alone.
 */
public final class InvalidateUnknownOp implements Operation<Integer> {
  private final String datanodeUuid;
  private final List<ReportedReplica> replicas;
  private final long term;

  public InvalidateUnknownOp(String datanodeUuid, List<ReportedReplica> replicas, long term) {
    this.datanodeUuid = datanodeUuid;
    this.replicas = replicas;
    this.term = term;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "invalidateUnknown";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  /** Answers how many deletions it scheduled. */
  @Override
  public Integer execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    Map<Long, Long> owners = context.cluster().blockLookup().inodesOf(
        replicas.stream().map(ReportedReplica::blockId).toList());
    int scheduled = 0;
    for (ReportedReplica replica : replicas) {
      if (!owners.containsKey(replica.blockId())) {
        context.cluster().invalidations().insert(new InvalidatedBlock(datanodeUuid, replica.blockId(),
            replica.generationStamp(), replica.numBytes()));
        scheduled++;
      }
    }
    return scheduled;
  }
}
