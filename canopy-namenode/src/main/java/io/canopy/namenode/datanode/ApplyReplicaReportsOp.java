package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.replication.NarrowBlocks;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies what one datanode storage reported about the replicas of one file, under the file's exclusive lock, reading
 * only the reported blocks' rows (a full report's differences in a file of thousands of blocks touch a few): records
 * finalized replicas (completing committed blocks that reach minimum replication), forgets deleted or missing ones,
 * and marks corrupt the replicas whose stamp or length does not match their block (the leader deletes them when
 * {@link CorruptReplicas#deletable} allows); blocks of complete files that end up short of replicas, with too many,
 * or with corrupt ones are queued for the leader. Reporting the same thing twice
 * changes nothing.
 *
 * <p>Reports of blocks the file does not hold (anymore) are not applied here but answered, for the caller to look their
 * block up again: concat may have moved it to another file since the report's lookup, or it belongs to no file.
 */
public final class ApplyReplicaReportsOp implements Operation<List<ReportedReplica>> {
  private final long inodeId;
  private final String datanodeUuid;
  private final String storageId;
  private final List<ReportedReplica> reports;
  /** The reported blocks: only their rows are read (a long file's other blocks are not). */
  private final Set<Long> blockIds = new HashSet<>();
  private final int minReplication;
  private final NarrowBlocks narrow;
  private final long nowMs;

  public ApplyReplicaReportsOp(long inodeId, String datanodeUuid, String storageId, List<ReportedReplica> reports,
      int minReplication, NarrowBlocks narrow, long nowMs) {
    this.narrow = narrow;
    this.nowMs = nowMs;
    this.inodeId = inodeId;
    this.datanodeUuid = datanodeUuid;
    this.storageId = storageId;
    this.reports = reports;
    reports.forEach(report -> blockIds.add(report.blockId()));
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
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileBlocks(blockIds);
  }

  @Override
  public List<ReportedReplica> execute(TransactionContext context) throws IOException {
    Inode file = context.inodeLockedById();
    if (file == null) {
      return reports; // the file went away since the block lookup: its blocks moved, or belong to no file now
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileReplicas replicas = new FileReplicas(transaction, file, context.readFileBlocks(file, blockIds,
        LockMode.EXCLUSIVE));
    List<ReportedReplica> notHere = new ArrayList<>();
    for (ReportedReplica report : reports) {
      Block block = replicas.blocks.get(report.blockId());
      if (block == null) {
        notHere.add(report);
        continue;
      }
      switch (report.kind()) {
        case FINALIZED -> replicas.finalized(report, block);
        case DELETED, ABSENT -> replicas.gone(report.blockId());
        default -> throw new IllegalStateException("unknown report kind " + report.kind());
      }
    }
    replicas.updateReplicationQueue();
    return notHere;
  }

  /** The file's replica rows as this transaction changes them. */
  private final class FileReplicas {
    private final FileTables transaction;
    private final Inode file;
    private final Map<Long, Block> blocks = new HashMap<>();
    /** Storages holding a good replica, per block. */
    private final Map<Long, Set<String>> good = new HashMap<>();
    /** Corrupt replicas by storage, per block. */
    private final Map<Long, Map<String, Replica>> corrupt = new HashMap<>();
    /** The rows of this storage, per block. */
    private final Map<Long, Replica> here = new HashMap<>();
    private final Map<Long, UcReplica> pipelineHere = new HashMap<>();
    /** Blocks with a good replica on this storage before the reports. */
    private final Set<Long> goodHereBefore = new HashSet<>();
    /** The file's blocks queued as mis-placed when this transaction began, once read. */
    private Set<Long> queuedMisplaced;
    /** Blocks whose corrupt replicas this transaction changed. */
    private final Set<Long> corruptChanged = new HashSet<>();

    FileReplicas(FileTables transaction, Inode file, FileData data) {
      this.transaction = transaction;
      this.file = file;
      data.blocks().forEach(b -> blocks.put(b.blockId(), b));
      for (Replica replica : data.allReplicas()) {
        if (replica.corrupt()) {
          corrupt.computeIfAbsent(replica.blockId(), b -> new HashMap<>()).put(replica.storageId(), replica);
        } else {
          good.computeIfAbsent(replica.blockId(), b -> new HashSet<>()).add(replica.storageId());
        }
        if (replica.storageId().equals(storageId)) {
          here.put(replica.blockId(), replica);
          if (!replica.corrupt()) {
            goodHereBefore.add(replica.blockId());
          }
        }
      }
      for (UcReplica replica : data.ucReplicas()) {
        if (replica.storageId().equals(storageId)) {
          pipelineHere.put(replica.blockId(), replica);
        }
      }
    }

    void finalized(ReportedReplica report, Block block) {
      // A block being written or recovered has no final length yet; recovery finalizes replicas at the recovery id
      // (above the block's stamp) and they may report before commitBlockSynchronization does.
      boolean open = block.state() == BlockState.UNDER_CONSTRUCTION || block.state() == BlockState.UNDER_RECOVERY;
      // An open block's replicas may be behind (a pipeline recovery bumped the stamp) or ahead (a recovery id); a
      // closed block's must match its stamp and length exactly (HDFS's checkReplicaCorrupt).
      boolean staleStamp = open ? report.generationStamp() < block.generationStamp()
          : report.generationStamp() != block.generationStamp();
      CorruptReason reason = staleStamp ? CorruptReason.GENSTAMP_MISMATCH
          : !open && report.numBytes() != block.numBytes() ? CorruptReason.SIZE_MISMATCH : CorruptReason.NONE;
      if (reason != CorruptReason.NONE) {
        corruptFound(report, block, reason);
        return;
      }
      Replica recorded = here.get(block.blockId());
      if (recorded == null) {
        record(new Replica(inodeId, block.blockId(), storageId), false);
      } else if (recorded.corrupt() && CorruptReplicas.healedByAGoodReport(recorded.corruptReason())) {
        record(new Replica(inodeId, block.blockId(), storageId), true);
      } else if (recorded.corrupt()) {
        return; // a failed checksum stays corrupt whatever the datanode says of its stamp and length
      }
      if (open) {
        writePipeline(block.blockId(), report.generationStamp());
      } else if (block.state() == BlockState.COMMITTED && goodCount(block.blockId()) >= minReplication) {
        Block complete = block.with(block.numBytes(), block.generationStamp(), BlockState.COMPLETE);
        transaction.blocks().update(complete);
        blocks.put(complete.blockId(), complete);
      }
    }

    /** Records a good replica on this storage: a new row, or ({@code replacing}) a corrupt row healed. */
    private void record(Replica replica, boolean replacing) {
      if (replacing) {
        transaction.replicas().update(replica);
        forgetCorrupt(replica.blockId());
      } else {
        transaction.replicas().insert(replica);
      }
      here.put(replica.blockId(), replica);
      good.computeIfAbsent(replica.blockId(), b -> new HashSet<>()).add(storageId);
    }

    /**
     * A replica on this storage found corrupt for {@code reason}: recorded as corrupt (its stamp kept, a deletion must
     * name it) and its block queued. Deleting it is the leader's decision, on live replicas that have reported to it
     * ({@link CorruptReplicas#deletable}): what this namenode reads here may be as old as the cluster's last start.
     */
    private void corruptFound(ReportedReplica report, Block block, CorruptReason reason) {
      long blockId = block.blockId();
      Replica recorded = here.get(blockId);
      Set<String> goodStorages = good.get(blockId);
      if (goodStorages != null) {
        goodStorages.remove(storageId);
      }
      Replica marked = new Replica(inodeId, blockId, storageId).markedCorrupt(reason, report.generationStamp());
      if (recorded == null) {
        transaction.replicas().insert(marked);
      } else if (!marked.equals(recorded)) {
        transaction.replicas().update(marked);
      }
      if (!marked.equals(recorded)) {
        corruptChanged.add(blockId);
      }
      here.put(blockId, marked);
      corrupt.computeIfAbsent(blockId, b -> new HashMap<>()).put(storageId, marked);
    }

    private void forgetCorrupt(long blockId) {
      Map<String, Replica> ofBlock = corrupt.get(blockId);
      if (ofBlock != null && ofBlock.remove(storageId) != null) {
        corruptChanged.add(blockId);
      }
    }

    /** The datanode deleted the replica, or its full report no longer lists it. */
    void gone(long blockId) {
      Replica recorded = here.remove(blockId);
      if (recorded != null) {
        transaction.replicas().delete(recorded.key());
        Set<String> goodStorages = good.get(blockId);
        if (goodStorages != null) {
          goodStorages.remove(storageId);
        }
        forgetCorrupt(blockId);
      }
      if (pipelineHere.remove(blockId) != null) {
        transaction.ucReplicas().delete(new ReplicaKey(inodeId, blockId, storageId));
      }
    }

    private int goodCount(long blockId) {
      return good.getOrDefault(blockId, Set.of()).size();
    }

    private void writePipeline(long blockId, long generationStamp) {
      UcReplica replica = new UcReplica(inodeId, blockId, storageId, UcReplicaState.FINALIZED, generationStamp);
      if (pipelineHere.put(blockId, replica) == null) {
        transaction.ucReplicas().insert(replica);
      } else {
        transaction.ucReplicas().update(replica);
      }
    }

    /** Whether the block is queued as mis-placed already (the file's queue rows, read once, only when asked). */
    private boolean queuedAsMisplaced(long blockId) throws StoreException {
      if (queuedMisplaced == null) {
        queuedMisplaced = new HashSet<>();
        for (QueuedBlock queued : transaction.replicationQueue().ofFile(inodeId)) {
          if (queued.priority() == ReplicationPriority.MISPLACED) {
            queuedMisplaced.add(queued.blockId());
          }
        }
      }
      return queuedMisplaced.contains(blockId);
    }

    /**
     * Keeps the replication queue in step with what the reports changed on complete blocks: a replica lost leaves its
     * block short, a replica more can make it excess (a dead datanode back with its block report), the replica that
     * brings a closed file's block to its replication takes it off the queue (it was queued when the file closed
     * before every pipeline datanode had reported) unless its replicas all sit in one zone while the live datanodes
     * span several (it stays queued, as mis-placed, for the leader to spread it), the first replica of a missing
     * block queues it anew, and a block whose corrupt replicas changed is queued for the leader to copy it or delete them. Counts are of good recorded
     * replicas; the leader weighs liveness.
     */
    void updateReplicationQueue() throws StoreException {
      Set<Long> changed = new HashSet<>(goodHereBefore);
      here.forEach((blockId, replica) -> {
        if (!replica.corrupt()) {
          changed.add(blockId);
        }
      });
      changed.addAll(corruptChanged);
      for (long blockId : changed) {
        Block block = blocks.get(blockId);
        if (block == null || block.state() != BlockState.COMPLETE) {
          continue;
        }
        int replicas = goodCount(blockId);
        int replication = file.replication();
        if (!corrupt.getOrDefault(blockId, Map.of()).isEmpty()) {
          CorruptReplicas.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
          continue;
        }
        Replica now = here.get(blockId);
        boolean added = now != null && !now.corrupt() && !goodHereBefore.contains(blockId);
        boolean removed = goodHereBefore.contains(blockId) && (now == null || now.corrupt());
        if (removed && replicas < replication || added && replicas > replication) {
          ReplicationQueue.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
        } else if (added && !file.underConstruction() && replicas == replication) {
          if (narrow.narrow(good.getOrDefault(blockId, Set.of()))) {
            if (!queuedAsMisplaced(blockId)) { // a row already there keeps the leader's back-off
              transaction.replicationQueue().put(new QueuedBlock(inodeId, blockId, ReplicationPriority.MISPLACED,
                  nowMs));
            }
          } else {
            ReplicationQueue.dequeue(transaction, inodeId, blockId);
          }
        } else if (added && !file.underConstruction() && replicas == 1) {
          // A closed file's block had no replica left (missing) and has a source again: queued anew, so the leader
          // looks at it now rather than when it next gets round to missing blocks.
          ReplicationQueue.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
        } else if (corruptChanged.contains(blockId)) {
          ReplicationQueue.queue(transaction, inodeId, blockId, replicas, replication, nowMs);
        }
      }
    }
  }
}
