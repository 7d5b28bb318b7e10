package io.canopy.metadata.entity;

/**
 * A block in the replication queue: its live replica count differs from its file's replication. Partitioned by the
 * file's inode id. The leader looks at it no earlier than {@code notBeforeMs} (wall clock), which gives datanodes
 * that are still to report a just-closed file's replicas the time to do so.
 */
public record QueuedBlock(long inodeId, long blockId, ReplicationPriority priority, long notBeforeMs) {
  public QueuedBlock {
    if (priority == null) {
      throw new IllegalArgumentException("queued block " + blockId + " of inode " + inodeId + " has no priority");
    }
  }

  public BlockKey key() {
    return new BlockKey(inodeId, blockId);
  }

  public QueuedBlock withPriority(ReplicationPriority newPriority) {
    return new QueuedBlock(inodeId, blockId, newPriority, notBeforeMs);
  }
}
