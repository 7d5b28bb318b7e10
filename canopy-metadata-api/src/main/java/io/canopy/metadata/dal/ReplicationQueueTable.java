package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.QueuedBlock;
import java.util.List;

/**
 * The replication queue: blocks with fewer or more live replicas than their file's replication, partitioned by inode
 * id and locked implicitly through their file's inode (every writer holds the file exclusively). File operations
 * and replica reports add and remove rows of their file; the leader pages through the whole queue.
 */
public interface ReplicationQueueTable {
  /** Partition-scoped scan of one file's queued blocks. */
  List<QueuedBlock> ofFile(long inodeId) throws StoreException;

  /**
   * Leader housekeeping only: up to {@code limit} queued blocks in queue order (priority code, then inode id, then
   * block id) strictly after {@code after}, or from the start when {@code after} is null. Not locked.
   */
  List<QueuedBlock> page(QueuedBlock after, int limit) throws StoreException;

  /** Queues a block, or replaces its priority and time when it is queued already. */
  void put(QueuedBlock block);

  /** Removes a block from the queue; nothing happens when it is not queued. */
  void delete(BlockKey key);
}
