package io.canopy.metadata.entity;

/** A replica a datanode must delete (its file was deleted or the replica is stale); partitioned by datanode. */
public record InvalidatedBlock(String datanodeUuid, long blockId, long generationStamp, long numBytes) {
}
