package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.tx.FileTables;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How file operations and replica reports feed the replication queue, always in the transaction that holds the
 * file exclusively. A queued block is a hint for the leader, which counts live replicas again under the file's lock
 * before doing anything: queuing too much costs a look, queuing too little would leave a block short of replicas.
 */
public final class ReplicationQueue {
  private ReplicationQueue() {
  }

  /**
   * The priority of a block with {@code replicas} usable replicas that should have {@code replication}, or null
   * when it has exactly that many (ordered like HDFS's low-redundancy queues, plus excess and missing).
   */
  public static ReplicationPriority priority(int replicas, int replication) {
    if (replicas == replication) {
      return null;
    }
    if (replicas > replication) {
      return ReplicationPriority.EXCESS;
    }
    if (replicas == 0) {
      return ReplicationPriority.MISSING;
    }
    if (replicas == 1) {
      return ReplicationPriority.HIGHEST;
    }
    return replicas * 3 < replication ? ReplicationPriority.VERY_UNDER_REPLICATED
        : ReplicationPriority.UNDER_REPLICATED;
  }

  /**
   * Queues the block unless it has exactly its replication; the leader looks at it from {@code notBeforeMs} on. A
   * database-resident block is never queued: the database keeps it, no datanode holds a replica.
   */
  public static void queue(FileTables transaction, long inodeId, long blockId, int replicas, int replication,
      long notBeforeMs) {
    ReplicationPriority priority = priority(replicas, replication);
    if (priority != null && !SmallBlocks.isSmall(blockId)) {
      transaction.replicationQueue().put(new QueuedBlock(inodeId, blockId, priority, notBeforeMs));
    }
  }

  /**
   * Queues what a file closed by lease recovery may lack: its complete blocks whose recorded replicas ({@code
   * replicas}, as read before this transaction) differ from its replication, and its last block whatever it had (the
   * recovery rewrote that block's replicas, so the rows read before may be stale). The leader counts again.
   */
  public static void queueRecoveredFile(FileTables transaction, Inode file, List<Block> blocks,
      List<Replica> replicas, long nowMs) {
    Map<Long, Set<String>> recorded = storagesByBlock(replicas);
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      int count = recorded.getOrDefault(block.blockId(), Set.of()).size();
      ReplicationPriority priority = priority(count, file.replication());
      if (priority == null && i == blocks.size() - 1) {
        priority = ReplicationPriority.UNDER_REPLICATED; // only a hint: its replicas changed in this transaction
      }
      if (priority != null && block.state() == BlockState.COMPLETE && !SmallBlocks.isSmall(block.blockId())) {
        transaction.replicationQueue().put(new QueuedBlock(file.id(), block.blockId(), priority, nowMs));
      }
    }
  }

  /** Removes the block from the queue (a no-op when it is not queued). */
  public static void dequeue(FileTables transaction, long inodeId, long blockId) {
    transaction.replicationQueue().delete(new BlockKey(inodeId, blockId));
  }

  /** The storages holding a finalized replica, per block id. */
  public static Map<Long, Set<String>> storagesByBlock(List<Replica> replicas) {
    Map<Long, Set<String>> storages = new HashMap<>();
    for (Replica replica : replicas) {
      storages.computeIfAbsent(replica.blockId(), b -> new HashSet<>()).add(replica.storageId());
    }
    return storages;
  }
}
