package io.canopy.metadata.entity;

/** Primary key of a replica row; the inode id is the partition key. */
public record ReplicaKey(long inodeId, long blockId, String storageId) {
}
