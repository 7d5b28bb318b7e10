package io.canopy.metadata.entity;

/** Primary key of a block row: (inode id, block id); the inode id is the partition key. */
public record BlockKey(long inodeId, long blockId) {
}
