package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.quota.Usage;
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
 * Removes an exclusively locked inode and everything under it: descendants are locked exclusively top-down
 * (consistent with the global lock order), their blocks are scheduled for deletion on the datanodes holding them,
 * their rows (quota rows of directories with a quota included) go in the same transaction, and what they used
 * against quotas is returned for the caller to give back to the directories above.
 */
final class InodeRemover {
  private InodeRemover() {
  }

  /** Removes {@code root} and its subtree; returns what it used against quotas (one per inode, storage space). */
  static Usage removeSubtree(TransactionContext context, DatanodeRegistry registry, Inode root)
      throws IOException {
    return removeAll(context, registry, context.subtree(root, LockMode.EXCLUSIVE));
  }

  /**
   * Removes a subtree the caller read exclusively locked ({@link TransactionContext#subtree}, e.g. to check
   * permissions on it first); returns what it used against quotas.
   */
  static Usage removeAll(TransactionContext context, DatanodeRegistry registry, List<Inode> all)
      throws IOException {
    List<Inode> files = new ArrayList<>();
    long fileRows = 0;
    for (Inode inode : all) {
      if (!inode.directory() && !inode.isSymlink()) {
        files.add(inode);
        fileRows += blockRowsOf(inode);
      }
    }
    // held before they are read: their blocks, replicas and deletions weigh more than the inodes
    context.holdSubtreeRows(all.get(0), fileRows);
    long storageSpace = removeFileData(context, registry, files);
    for (Inode inode : all) {
      if (inode.hasQuota()) {
        context.removeQuota(inode, true);
      }
      if (inode.subtreeLocked()) {
        // held by a subtree operation whose namenode died (a live one would have stopped this one): its row goes too
        context.cluster().subtreeOperations().delete(inode.id());
      }
      context.deleteInode(inode);
    }
    // Extended attributes go with their inodes: one blind delete travelling with the commit, no read first.
    context.deleteXAttrsOf(all);
    return new Usage(all.size(), storageSpace);
  }

  /**
   * The block-level rows a file's removal holds, from its row alone: each block (its length over the preferred block
   * size, one more while it is written) with its replicas (the file's replication).
   */
  private static long blockRowsOf(Inode file) {
    long blockSize = Math.max(1, file.preferredBlockSize());
    long blocks = (file.size() + blockSize - 1) / blockSize + (file.underConstruction() ? 1 : 0);
    return blocks * (1 + Math.max(1, file.replication()));
  }

  /**
   * Removes the blocks, replicas and leases of exclusively locked files and schedules their replicas' deletion;
   * returns the storage space the files used.
   */
  static long removeFileData(TransactionContext context, DatanodeRegistry registry, List<Inode> files)
      throws StoreException {
    if (files.isEmpty()) {
      return 0;
    }
    Map<Long, Inode> byId = new HashMap<>();
    FileTables transaction = null;
    for (Inode file : files) {
      transaction = context.fileData(file, LockMode.EXCLUSIVE);
      byId.put(file.id(), file);
    }
    List<Block> fileBlocks;
    List<Replica> replicas;
    List<UcReplica> ucReplicas;
    if (files.size() == 1) {
      // one file (the common delete): its rows come with its lock, or in one round trip
      FileData data = context.readFileData(files.get(0), LockMode.EXCLUSIVE);
      fileBlocks = data.blocks();
      replicas = data.allReplicas();
      ucReplicas = data.ucReplicas();
    } else {
      fileBlocks = transaction.blocks().ofFiles(byId.keySet());
      replicas = transaction.replicas().ofFiles(byId.keySet());
      ucReplicas = transaction.ucReplicas().ofFiles(byId.keySet());
    }
    Map<Long, Block> blocks = new HashMap<>();
    List<Long> smallFiles = new ArrayList<>();
    long storageSpace = 0;
    for (Block block : fileBlocks) {
      Inode file = byId.get(block.inodeId());
      storageSpace += StorageSpace.ofBlock(file, block) * file.replication();
      blocks.put(block.blockId(), block);
      transaction.blocks().delete(block.key());
      if (SmallBlocks.isSmall(block.blockId())) {
        smallFiles.add(block.inodeId()); // its bytes are in the database, not on datanodes: they go with it
      } else {
        transaction.blockLookup().delete(block.blockId());
      }
    }
    if (!smallFiles.isEmpty()) {
      transaction.smallFiles().deleteOfInodes(smallFiles);
    }
    Set<String> scheduled = new HashSet<>();
    for (Replica replica : replicas) {
      invalidate(transaction, registry, replica, blocks.get(replica.blockId()), scheduled);
      transaction.replicas().delete(replica.key());
    }
    for (UcReplica replica : ucReplicas) {
      invalidate(transaction, registry, replica.storageId(), blocks.get(replica.blockId()), scheduled);
      transaction.ucReplicas().delete(replica.key());
    }
    Map<String, Set<Inode>> openByHolder = new HashMap<>();
    for (Inode file : files) {
      if (file.underConstruction() && file.clientName() != null) {
        openByHolder.computeIfAbsent(file.clientName(), holder -> new HashSet<>()).add(file);
      }
    }
    for (Map.Entry<String, Set<Inode>> holder : openByHolder.entrySet()) {
      Leases.remove(context, holder.getKey(), holder.getValue());
    }
    return storageSpace;
  }

  /**
   * Queues the deletion of {@code block}'s replica on {@code storageId}'s datanode (unknown storages are skipped),
   * once per datanode and block ({@code scheduled} remembers them within the transaction).
   */
  static void invalidate(FileTables transaction, DatanodeRegistry registry, String storageId, Block block,
      Set<String> scheduled) throws StoreException {
    if (block != null) {
      invalidate(transaction, registry, storageId, block, block.generationStamp(), scheduled);
    }
  }

  /**
   * Queues the deletion of a recorded replica of {@code block}: a corrupt replica is named with the generation stamp
   * it has on its datanode (a datanode deletes a replica only when the stamp matches).
   */
  static void invalidate(FileTables transaction, DatanodeRegistry registry, Replica replica, Block block,
      Set<String> scheduled) throws StoreException {
    if (block != null) {
      invalidate(transaction, registry, replica.storageId(), block,
          replica.corrupt() ? replica.corruptGenerationStamp() : block.generationStamp(), scheduled);
    }
  }

  private static void invalidate(FileTables transaction, DatanodeRegistry registry, String storageId, Block block,
      long generationStamp, Set<String> scheduled) throws StoreException {
    DatanodeRegistry.Node node = registry.nodeOfStorage(storageId);
    if (node != null && scheduled.add(node.record().uuid() + "/" + block.blockId())) {
      transaction.invalidations().insert(new InvalidatedBlock(node.record().uuid(), block.blockId(),
          generationStamp, block.numBytes()));
    }
  }
}
