package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies what one datanode storage reported about the replicas of one file, under the file's exclusive lock:
 * records finalized replicas (completing committed blocks that reach minimum replication), forgets deleted or
 * missing ones, and schedules deletion of replicas that are stale or whose block is
 * gone; blocks of complete files that end up short of replicas or with too many are queued for the leader.
 * Reporting the same thing twice changes nothing.
 *
 * <p>A block the file no longer holds (or a file gone) is garbage only if no other file holds it now: concat moves
 * its sources' blocks to the target between the report's block lookup and this transaction. Such reports are not
 * applied here but answered, for the caller to apply to the block's new file.
 */
public final class ApplyReplicaReportsOp implements Operation<List<ReportedReplica>> {
  private final long inodeId;
  private final String datanodeUuid;
  private final String storageId;
  private final List<ReportedReplica> reports;
  private final int minReplication;
  private final long nowMs;

  public ApplyReplicaReportsOp(long inodeId, String datanodeUuid, String storageId, List<ReportedReplica> reports,
      int minReplication, long nowMs) {
    this.nowMs = nowMs;
    this.inodeId = inodeId;
    this.datanodeUuid = datanodeUuid;
    this.storageId = storageId;
    this.reports = reports;
    this.minReplication = minReplication;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "applyReplicaReports";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileData();
  }

  @Override
  public List<ReportedReplica> execute(TransactionContext context) throws IOException {
    Inode file = context.inodeLockedById();
    if (file == null) { // the file went away since the block lookup: its blocks are garbage unless they moved
      List<ReportedReplica> moved = movedElsewhere(context.cluster(), reports);
      for (ReportedReplica report : reports) {
        if (report.kind() == ReportedReplica.Kind.FINALIZED && !moved.contains(report)) {
          invalidate(context.cluster(), report);
        }
      }
      return moved;
    }
    Transaction transaction = context.fileData(file, LockMode.EXCLUSIVE);
    TransactionContext.FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    Map<Long, Block> blocks = new HashMap<>();
    data.blocks().forEach(b -> blocks.put(b.blockId(), b));
    List<ReportedReplica> notHere = reports.stream().filter(r -> !blocks.containsKey(r.blockId())).toList();
    List<ReportedReplica> moved = notHere.isEmpty() ? List.of() : movedElsewhere(transaction, notHere);
    Map<Long, Integer> counts = new HashMap<>();
    Set<Long> recordedHere = new HashSet<>();
    for (Replica replica : data.replicas()) {
      counts.merge(replica.blockId(), 1, Integer::sum);
      if (replica.storageId().equals(storageId)) {
        recordedHere.add(replica.blockId());
      }
    }
    Map<Long, UcReplica> pipelineHere = new HashMap<>();
    for (UcReplica replica : data.ucReplicas()) {
      if (replica.storageId().equals(storageId)) {
        pipelineHere.put(replica.blockId(), replica);
      }
    }
    Set<Long> before = new HashSet<>(recordedHere);
    for (ReportedReplica report : reports) {
      if (moved.contains(report)) {
        continue;
      }
      Block block = blocks.get(report.blockId());
      ReplicaKey key = new ReplicaKey(inodeId, report.blockId(), storageId);
      switch (report.kind()) {
        case FINALIZED -> finalized(transaction, report, block, key, counts, recordedHere, pipelineHere, blocks);
        case DELETED, ABSENT -> {
          if (recordedHere.remove(report.blockId())) {
            transaction.replicas().delete(key);
            counts.merge(report.blockId(), -1, Integer::sum);
          }
          if (pipelineHere.remove(report.blockId()) != null) {
            transaction.ucReplicas().delete(key);
          }
        }
        default -> throw new IllegalStateException("unknown report kind " + report.kind());
      }
    }
    updateReplicationQueue(transaction, file, blocks, counts, before, recordedHere);
    return moved;
  }

  /** The reports among {@code candidates} whose block another file holds now (read in this transaction). */
  private List<ReportedReplica> movedElsewhere(Transaction transaction, List<ReportedReplica> candidates)
      throws IOException {
    Set<Long> blockIds = new HashSet<>();
    candidates.forEach(r -> blockIds.add(r.blockId()));
    Map<Long, Long> owners = transaction.blockLookup().inodesOf(blockIds);
    return candidates.stream().filter(r -> {
      Long owner = owners.get(r.blockId());
      return owner != null && owner != inodeId;
    }).toList();
  }

  /**
   * Keeps the replication queue in step with what this report changed on complete blocks: a replica lost leaves its
   * block short, a replica more can make it excess (a dead datanode back with its block report), the replica that
   * brings a closed file's block to its replication takes it off the queue (it was queued when the file closed
   * before every pipeline datanode had reported), and the first replica of a missing block queues it anew. Counts
   * are of recorded replicas; the leader weighs liveness.
   */
  private void updateReplicationQueue(Transaction transaction, Inode file, Map<Long, Block> blocks,
      Map<Long, Integer> counts, Set<Long> before, Set<Long> after) {
    Set<Long> changed = new HashSet<>(before);
    changed.addAll(after);
    for (long blockId : changed) {
      boolean added = after.contains(blockId) && !before.contains(blockId);
      boolean removed = before.contains(blockId) && !after.contains(blockId);
      Block block = blocks.get(blockId);
      if (!added && !removed || block == null || block.state() != BlockState.COMPLETE) {
        continue;
      }
      int replicas = counts.getOrDefault(blockId, 0);
      int replication = file.replication();
      if (removed && replicas < replication || added && replicas > replication) {
        ReplicationQueue.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
      } else if (added && !file.underConstruction() && replicas == replication) {
        ReplicationQueue.dequeue(transaction, inodeId, blockId);
      } else if (added && !file.underConstruction() && replicas == 1) {
        // A closed file's block had no replica left (missing) and has a source again: queued anew, so the leader
        // looks at it now rather than when it next gets round to missing blocks.
        ReplicationQueue.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
      }
    }
  }

  private void finalized(Transaction transaction, ReportedReplica report, Block block, ReplicaKey key,
      Map<Long, Integer> counts, Set<Long> recordedHere, Map<Long, UcReplica> pipelineHere, Map<Long, Block> blocks) {
    // A block being written or recovered has no final length yet; recovery finalizes replicas at the recovery id
    // (above the block's stamp) and they may report before commitBlockSynchronization does.
    boolean open = block != null
        && (block.state() == BlockState.UNDER_CONSTRUCTION || block.state() == BlockState.UNDER_RECOVERY);
    boolean stale = block == null || report.generationStamp() < block.generationStamp()
        || !open && report.numBytes() != block.numBytes();
    if (stale) {
      if (recordedHere.remove(report.blockId())) {
        transaction.replicas().delete(key);
        counts.merge(report.blockId(), -1, Integer::sum);
      }
      invalidate(transaction, report);
      return;
    }
    if (recordedHere.add(report.blockId())) {
      transaction.replicas().insert(new Replica(inodeId, report.blockId(), storageId));
      counts.merge(report.blockId(), 1, Integer::sum);
    }
    if (open) {
      writePipeline(transaction, pipelineHere, key, UcReplicaState.FINALIZED, report.generationStamp());
    } else if (block.state() == BlockState.COMMITTED && counts.get(report.blockId()) >= minReplication) {
      Block complete = block.with(block.numBytes(), block.generationStamp(), BlockState.COMPLETE);
      transaction.blocks().update(complete);
      blocks.put(complete.blockId(), complete);
    }
  }

  private void writePipeline(Transaction transaction, Map<Long, UcReplica> pipelineHere, ReplicaKey key,
      UcReplicaState state, long generationStamp) {
    UcReplica replica = new UcReplica(inodeId, key.blockId(), storageId, state, generationStamp);
    if (pipelineHere.put(key.blockId(), replica) == null) {
      transaction.ucReplicas().insert(replica);
    } else {
      transaction.ucReplicas().update(replica);
    }
  }

  private void invalidate(Transaction transaction, ReportedReplica report) {
    transaction.invalidations().insert(new InvalidatedBlock(datanodeUuid, report.blockId(),
        report.generationStamp(), report.numBytes()));
  }
}
