package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.IdKind;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lease recovery of one open file, inside the transaction of whoever starts it (the leader's lease monitor, a
 * client's recoverLease or create): closes the file at once when its blocks allow it, drops an empty last block
 * nobody holds, and otherwise puts the last block under recovery and hands the file to
 * {@link LeaseLimits#RECOVERY_HOLDER}. The datanodes then agree on the block's length and report it with
 * commitBlockSynchronization ({@link CommitBlockSynchronizationOp}), which closes the file.
 *
 * <p>Recovery ids (the generation stamp the block is recovered to) are issued only by the leader, for the attempt
 * it dispatches to a datanode: a client that starts a recovery marks the block under recovery with no id (0), and
 * the leader's next round issues one. So every id a datanode is given belongs to one leader term and one attempt,
 * and a client polling recoverLease never invalidates the recovery running on the datanodes.
 */
final class LeaseRecovery {
  /** Who releases the lease. */
  enum Starter {
    /** The leader (fenced by its term): (re)starts recovery with a new recovery id. */
    LEADER,
    /** A client call: starts a recovery, never restarts one in progress. */
    CLIENT
  }

  private LeaseRecovery() {
  }

  /** Releases the lease on the exclusively locked open {@code file} (HDFS's internalReleaseLease). */
  static ReleaseOutcome release(TransactionContext context, NamespaceServices services, Inode file, Starter starter)
      throws IOException {
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = new ArrayList<>(data.blocks());
    completeReplicated(transaction, blocks, BlockCommit.replicaCounts(data), services.limits().minReplication());
    if (closeIfComplete(context, services, file, data, blocks)) {
      return ReleaseOutcome.of(ReleaseOutcome.Kind.CLOSED, "all blocks complete, file closed at length "
          + OpenFile.length(blocks));
    }
    int lastIndex = blocks.size() - 1;
    Block last = blocks.get(lastIndex);
    for (int i = 0; i < lastIndex - 1; i++) {
      if (blocks.get(i).state() != BlockState.COMPLETE) {
        throw new IOException("Cannot release the lease on file " + file.name() + " (inode " + file.id()
            + "): block " + blocks.get(i).blockId() + " (index " + i + ") is " + blocks.get(i).state()
            + ", but only the last two blocks of an open file may be incomplete");
      }
    }
    if (lastIndex > 0 && blocks.get(lastIndex - 1).state() != BlockState.COMPLETE) {
      return ReleaseOutcome.of(ReleaseOutcome.Kind.WAITING, "Failed to release lease for file " + file.name()
          + " (inode " + file.id() + "). Committed blocks are waiting to be minimally replicated (block "
          + blocks.get(lastIndex - 1).blockId() + ")");
    }
    List<String> locations = locationsOf(last, data);
    if (locations.isEmpty() && last.numBytes() == 0) {
      // No datanode was ever told of the block: the writer died before sending it any byte. Nothing to recover.
      transaction.blocks().delete(last.key());
      transaction.blockLookup().delete(last.blockId());
      blocks.remove(lastIndex);
      // the preferred block it was charged goes back to the quotas above (rare: found through the file's ancestors)
      QuotaUpdater.chargeChangeOf(context, file, 0, -StorageSpace.ofBlock(file, last) * file.replication(), false);
      closeIfComplete(context, services, file, data, blocks);
      return ReleaseOutcome.of(ReleaseOutcome.Kind.CLOSED, "removed empty last block " + last.blockId()
          + " and closed the file at length " + OpenFile.length(blocks));
    }
    if (last.state() == BlockState.UNDER_RECOVERY && starter == Starter.CLIENT) {
      return ReleaseOutcome.of(ReleaseOutcome.Kind.IN_PROGRESS, "block " + last.blockId() + " is under recovery "
          + "(recovery id " + last.recoveryId() + ")");
    }
    long recoveryId = starter == Starter.LEADER ? services.ids().nextGlobal(IdKind.GENERATION_STAMP) : 0;
    Block recovering = last.underRecovery(recoveryId);
    transaction.blocks().update(recovering);
    String previousHolder = file.clientName();
    Inode held = Leases.reassign(context, file, LeaseLimits.RECOVERY_HOLDER, services.now());
    return ReleaseOutcome.recovering("block " + last.blockId() + " (" + last.state() + ", " + last.numBytes()
        + " bytes known, stamp " + last.generationStamp() + ") put under recovery"
        + (recoveryId > 0 ? " with recovery id " + recoveryId : " (the leader issues its recovery id)")
        + (previousHolder.equals(held.clientName()) ? "" : ", lease moved from " + previousHolder + " to "
            + held.clientName()), new BlockRecoveryTask(file.id(), file.name(), recovering, locations));
  }

  /** Completes every committed block of {@code blocks} that has enough finalized replicas (updating the list). */
  static void completeReplicated(FileTables transaction, List<Block> blocks, Map<Long, Integer> replicaCounts,
      int minReplication) {
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      if (block.state() == BlockState.COMMITTED && replicaCounts.getOrDefault(block.blockId(), 0) >= minReplication) {
        Block complete = block.with(block.numBytes(), block.generationStamp(), BlockState.COMPLETE);
        transaction.blocks().update(complete);
        blocks.set(i, complete);
      }
    }
  }

  /**
   * Closes the exclusively locked open {@code file} when every one of {@code blocks} (its blocks as this
   * transaction left them) is complete: length, modification time, no writer, no pipeline rows, no lease path; the
   * blocks that may be short of replicas are queued for the leader.
   */
  static boolean closeIfComplete(TransactionContext context, NamespaceServices services, Inode file,
      FileData data, List<Block> blocks) {
    for (Block block : blocks) {
      if (block.state() != BlockState.COMPLETE) {
        return false;
      }
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    for (UcReplica replica : data.ucReplicas()) {
      transaction.ucReplicas().delete(replica.key());
    }
    context.updateInode(file.closed(OpenFile.length(blocks), services.now()));
    Leases.remove(context, file.clientName(), Set.of(file));
    ReplicationQueue.queueRecoveredFile(transaction, file, blocks, data.replicas(), services.now());
    return true;
  }

  /** Storages that may hold a replica of {@code block}: its pipeline, then datanodes that reported it finalized. */
  static List<String> locationsOf(Block block, FileData data) {
    Set<String> storages = new LinkedHashSet<>();
    for (UcReplica replica : data.ucReplicas()) {
      if (replica.blockId() == block.blockId()) {
        storages.add(replica.storageId());
      }
    }
    for (Replica replica : data.replicas()) {
      if (replica.blockId() == block.blockId()) {
        storages.add(replica.storageId());
      }
    }
    return List.copyOf(storages);
  }
}
