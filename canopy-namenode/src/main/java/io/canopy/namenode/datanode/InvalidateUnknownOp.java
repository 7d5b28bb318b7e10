package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/** Schedules deletion of replicas whose blocks belong to no file. */
public final class InvalidateUnknownOp implements Operation<Void> {
  private final String datanodeUuid;
  private final List<ReportedReplica> replicas;

  public InvalidateUnknownOp(String datanodeUuid, List<ReportedReplica> replicas) {
    this.datanodeUuid = datanodeUuid;
    this.replicas = replicas;
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

  @Override
  public Void execute(TransactionContext context) throws IOException {
    for (ReportedReplica replica : replicas) {
      context.cluster().invalidations().insert(new InvalidatedBlock(datanodeUuid, replica.blockId(),
          replica.generationStamp(), replica.numBytes()));
    }
    return null;
  }
}
