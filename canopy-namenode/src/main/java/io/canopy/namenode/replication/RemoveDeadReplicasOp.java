package io.canopy.namenode.replication;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Removes the replica records a dead datanode holds of one file, under the file's exclusive lock and fenced by the
 * leader term, and queues the file's complete blocks that are now short of live replicas. Only records go: no
 * deletion is sent anywhere, so a block whose every replica was on dead datanodes is queued as missing, and copied
 * as soon as one of them registers again and reports it. The datanode's row is read shared first: if it registered
 * again (or was declared dead at another time) nothing is removed, since its block report is the truth now; its
 * registration waits for this transaction, so its report comes after.
 */
final class RemoveDeadReplicasOp implements Operation<RemoveDeadReplicasOp.Result> {
  /** What was removed; {@code revived} when the datanode registered again (stop removing). */
  record Result(boolean revived, int replicasRemoved, int blocksQueued, List<Long> missingBlocks) {
  }

  private final long inodeId;
  private final String datanodeUuid;
  private final long declaredDeadAtMs;
  private final Set<String> storageIds;
  private final long term;
  private final ReplicationServices services;

  RemoveDeadReplicasOp(long inodeId, String datanodeUuid, long declaredDeadAtMs, Set<String> storageIds, long term,
      ReplicationServices services) {
    this.inodeId = inodeId;
    this.datanodeUuid = datanodeUuid;
    this.declaredDeadAtMs = declaredDeadAtMs;
    this.storageIds = Set.copyOf(storageIds);
    this.term = term;
    this.services = services;
  }

  @Override
  public String name() {
    return "removeDeadReplicas";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileData();
  }

  @Override
  public Result execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    Optional<DatanodeRecord> datanode = context.cluster().datanodes().get(datanodeUuid, LockMode.SHARED);
    if (datanode.isEmpty() || datanode.get().declaredDeadAtMs() != declaredDeadAtMs) {
      return new Result(true, 0, 0, List.of());
    }
    Inode file = context.inodeLockedById();
    if (file == null) {
      return new Result(false, 0, 0, List.of()); // deleted: its replica records went with it
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    Map<Long, List<Replica>> remaining = new HashMap<>();
    Set<Long> affected = new TreeSet<>();
    int removed = 0;
    for (Replica replica : data.allReplicas()) {
      if (storageIds.contains(replica.storageId())) {
        transaction.replicas().delete(replica.key());
        affected.add(replica.blockId());
        removed++;
      } else if (!replica.corrupt()) { // only good replicas count
        remaining.computeIfAbsent(replica.blockId(), b -> new ArrayList<>()).add(replica);
      }
    }
    int queued = 0;
    List<Long> missing = new ArrayList<>();
    long now = services.now();
    for (Block block : data.blocks()) {
      if (!affected.contains(block.blockId()) || block.state() != BlockState.COMPLETE) {
        continue; // blocks still being written are their writer's pipeline's business; closing queues them
      }
      long live = ReplicaHolder.of(remaining.getOrDefault(block.blockId(), List.of()), services.registry()).stream()
          .filter(ReplicaHolder::live).count();
      if (live < file.replication()) {
        ReplicationQueue.queue(transaction, inodeId, block.blockId(), (int) live, file.replication(), now);
        queued++;
        if (live == 0) {
          missing.add(block.blockId());
        }
      }
    }
    return new Result(false, removed, queued, missing);
  }
}
