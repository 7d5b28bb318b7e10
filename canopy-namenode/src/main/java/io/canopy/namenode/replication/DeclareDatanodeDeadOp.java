package io.canopy.namenode.replication;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/**
 * Marks a datanode dead, fenced by the leader term, if its last heartbeat (read under the row's exclusive lock) is
 * still older than the dead interval. From then on its heartbeats, on any namenode, are answered "register again",
 * and the leader removes its replicas. Returns the marked record, or null when it heartbeated meanwhile (or is gone,
 * or was marked already).
 */
final class DeclareDatanodeDeadOp implements Operation<DatanodeRecord> {
  private final String uuid;
  private final long term;
  private final long nowMs;
  private final long deadIntervalMs;

  DeclareDatanodeDeadOp(String uuid, long term, long nowMs, long deadIntervalMs) {
    this.uuid = uuid;
    this.term = term;
    this.nowMs = nowMs;
    this.deadIntervalMs = deadIntervalMs;
  }

  @Override
  public String name() {
    return "declareDatanodeDead";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public DatanodeRecord execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    Optional<DatanodeRecord> current = context.cluster().datanodes().get(uuid, LockMode.EXCLUSIVE);
    if (current.isEmpty() || current.get().isDeclaredDead()
        || nowMs - current.get().lastHeartbeatMs() < deadIntervalMs) {
      return null;
    }
    DatanodeRecord dead = current.get().withDeclaredDeadAt(nowMs);
    context.cluster().datanodes().update(dead);
    return dead;
  }
}
