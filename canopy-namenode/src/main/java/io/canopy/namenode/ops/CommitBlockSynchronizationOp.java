package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * commitBlockSynchronization: the primary datanode of a block recovery reports what the replicas agreed on. Under
 * the file's exclusive lock, the call must name the block's current recovery id; then the block takes the new
 * length and stamp and is recorded on the datanodes that now hold it (replicas elsewhere are scheduled for
 * deletion), or is deleted when no datanode had any byte of it, and the file is closed (its lease path removed)
 * when asked and every block is complete. A call repeated after it took effect (a retry, or the same report sent
 * to another namenode) finds the file closed and changes nothing: answers false.
 */
public final class CommitBlockSynchronizationOp implements Operation<Boolean> {
  /** What the datanode sent. */
  public record Request(ExtendedBlock oldBlock, long newGenerationStamp, long newLength, boolean closeFile,
      boolean deleteBlock, List<DatanodeID> newTargets, List<String> newTargetStorages) {
    public Request {
      newTargets = List.copyOf(newTargets);
      newTargetStorages = new ArrayList<>(newTargetStorages); // the datanode may send null slots
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(CommitBlockSynchronizationOp.class);

  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final long inodeId;
  private final Request request;

  public CommitBlockSynchronizationOp(NamespaceServices services, DatanodeRegistry registry, long inodeId,
      Request request) {
    this.services = services;
    this.registry = registry;
    this.inodeId = inodeId;
    this.request = request;
  }

  @Override
  public boolean idempotent() {
    return true; // a re-run after it took effect finds the file closed (or the block gone)
  }

  @Override
  public String name() {
    return "commitBlockSynchronization";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(inodeId, LockMode.EXCLUSIVE).withFileData();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ExtendedBlock oldBlock = request.oldBlock();
    Inode file = context.inodeLockedById();
    if (file == null) {
      if (request.deleteBlock()) {
        return false; // a retry: the block went with its file
      }
      throw new FileNotFoundException("File not found: inode " + inodeId + " of block " + oldBlock
          + " is gone, likely deleted");
    }
    FileTables transaction = context.fileData(file, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(file, LockMode.EXCLUSIVE);
    List<Block> blocks = new ArrayList<>(data.blocks());
    int index = indexOf(blocks, oldBlock.getBlockId());
    if (index < 0) {
      if (request.deleteBlock()) {
        return false; // a retry of a deletion that took effect
      }
      throw new IOException("Block (=" + oldBlock + ") not found in file " + file.name() + " (inode " + file.id()
          + ")");
    }
    Block stored = blocks.get(index);
    Block last = blocks.get(blocks.size() - 1);
    long spaceBefore = StorageSpace.ofFile(file, blocks);
    if ((!file.underConstruction() || stored.state() == BlockState.COMPLETE) && last.state() == BlockState.COMPLETE) {
      LOG.debug("commitBlockSynchronization of {}: file {} (inode {}) is not under construction any more: a repeat",
          oldBlock, file.name(), file.id());
      return false;
    }
    if (stored.blockId() != last.blockId()) {
      throw new IOException("commitBlockSynchronization of " + oldBlock + ": it is not the last block of file "
          + file.name() + " (inode " + file.id() + "), whose last block is " + last.blockId());
    }
    if (stored.recoveryId() != request.newGenerationStamp()) {
      throw new IOException("The recovery id " + request.newGenerationStamp() + " does not match current recovery "
          + "id " + stored.recoveryId() + " for block " + oldBlock + " of file " + file.name() + " (inode "
          + file.id() + ")");
    }
    Set<String> scheduled = new HashSet<>();
    if (request.deleteBlock()) {
      for (String storage : LeaseRecovery.locationsOf(stored, data)) {
        InodeRemover.invalidate(transaction, registry, storage, stored, scheduled);
      }
      dropCorruptRows(transaction, data, stored, Set.of(), scheduled);
      dropReplicaRows(transaction, data, stored, Set.of());
      transaction.blocks().delete(stored.key());
      transaction.blockLookup().delete(stored.blockId());
      blocks.remove(index);
    } else {
      blocks.set(index, synchronize(transaction, data, file, stored, scheduled));
    }
    // the recovered block is charged its agreed length, or nothing when deleted (unchecked, as in HDFS); found
    // through the file's ancestors only when some quota exists
    QuotaUpdater.chargeChangeOf(context, file, 0, StorageSpace.ofFile(file, blocks) - spaceBefore, false);
    boolean closed = request.closeFile() && LeaseRecovery.closeIfComplete(context, services, file, data, blocks);
    context.afterCommit(() -> LOG.info("commitBlockSynchronization(oldBlock={}, newGenerationStamp={}, newLength={}, "
        + "newTargets={}, closeFile={}, deleteBlock={}) of file {} (inode {}, writer {}): {}", oldBlock,
        request.newGenerationStamp(), request.newLength(), request.newTargets(), request.closeFile(),
        request.deleteBlock(), file.name(), file.id(), file.clientName(), closed ? "file closed"
            : request.closeFile() ? "file stays open until its blocks are minimally replicated" : "block updated"));
    return true;
  }

  /** The block with its agreed length and stamp, on the storages that synchronized it. */
  private Block synchronize(FileTables transaction, FileData data, Inode file, Block stored,
      Set<String> scheduled) throws StoreException {
    Set<String> targets = targetStorages(data, stored);
    for (String storage : LeaseRecovery.locationsOf(stored, data)) {
      if (!targets.contains(storage)) {
        InodeRemover.invalidate(transaction, registry, storage, stored, scheduled); // a replica left behind
      }
    }
    dropCorruptRows(transaction, data, stored, targets, scheduled);
    Set<String> recorded = dropReplicaRows(transaction, data, stored, targets);
    BlockState state;
    if (request.closeFile()) {
      for (String storage : targets) {
        if (!recorded.contains(storage)) {
          transaction.replicas().insert(new Replica(file.id(), stored.blockId(), storage));
        }
      }
      state = targets.size() >= services.limits().minReplication() ? BlockState.COMPLETE : BlockState.COMMITTED;
    } else {
      for (String storage : targets) {
        transaction.ucReplicas().insert(new UcReplica(file.id(), stored.blockId(), storage,
            UcReplicaState.FINALIZED, request.newGenerationStamp()));
      }
      state = BlockState.UNDER_CONSTRUCTION;
    }
    // a truncate's recovery is over once the datanodes agreed: the block no longer waits to be cut
    Block agreed = stored.with(request.newLength(), request.newGenerationStamp(), state).withoutTruncate();
    transaction.blocks().update(agreed);
    return agreed;
  }

  /**
   * Deletes the block's corrupt replica rows: the recovery rewrote the replicas of {@code synchronized} storages at the
   * agreed length and stamp (they are recorded again as good), any other corrupt replica is deleted on its datanode.
   */
  private void dropCorruptRows(FileTables transaction, FileData data, Block block,
      Set<String> synchronizedStorages, Set<String> scheduled) throws StoreException {
    for (Replica corrupt : data.corruptReplicas()) {
      if (corrupt.blockId() == block.blockId()) {
        transaction.replicas().delete(corrupt.key());
        if (!synchronizedStorages.contains(corrupt.storageId())) {
          InodeRemover.invalidate(transaction, registry, corrupt, block, scheduled);
        }
      }
    }
  }

  /**
   * Deletes the block's pipeline rows and its finalized-replica rows outside {@code keep}; returns the storages of
   * the finalized rows kept.
   */
  private static Set<String> dropReplicaRows(FileTables transaction, FileData data, Block block,
      Set<String> keep) {
    for (UcReplica replica : data.ucReplicas()) {
      if (replica.blockId() == block.blockId()) {
        transaction.ucReplicas().delete(replica.key());
      }
    }
    Set<String> kept = new HashSet<>();
    for (Replica replica : data.replicas()) {
      if (replica.blockId() != block.blockId()) {
        continue;
      }
      if (keep.contains(replica.storageId())) {
        kept.add(replica.storageId());
      } else {
        transaction.replicas().delete(replica.key());
      }
    }
    return kept;
  }

  /**
   * The storages the datanode names; a target without a storage id (older datanodes) is matched with the
   * pipeline storage of the block on that datanode.
   */
  private Set<String> targetStorages(FileData data, Block block) throws StoreException {
    Set<String> storages = new LinkedHashSet<>();
    List<String> known = LeaseRecovery.locationsOf(block, data);
    for (int i = 0; i < request.newTargets().size(); i++) {
      String storage = i < request.newTargetStorages().size() ? request.newTargetStorages().get(i) : null;
      if (storage == null || storage.isEmpty()) {
        storage = storageOn(known, request.newTargets().get(i).getDatanodeUuid());
      }
      if (storage == null) {
        LOG.warn("commitBlockSynchronization of {}: target {} names no storage and holds no known replica of it; "
            + "its replica is recorded when the datanode reports it", request.oldBlock(), request.newTargets().get(i));
      } else {
        storages.add(storage);
      }
    }
    return storages;
  }

  private String storageOn(List<String> storages, String datanodeUuid) throws StoreException {
    for (String storage : storages) {
      DatanodeRegistry.Node node = registry.nodeOfStorage(storage);
      if (node != null && node.record().uuid().equals(datanodeUuid)) {
        return storage;
      }
    }
    return null;
  }

  private static int indexOf(List<Block> blocks, long blockId) {
    for (int i = 0; i < blocks.size(); i++) {
      if (blocks.get(i).blockId() == blockId) {
        return i;
      }
    }
    return -1;
  }
}
