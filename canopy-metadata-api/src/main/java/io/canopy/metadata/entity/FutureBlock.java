package io.canopy.metadata.entity;

/**
 * A replica a datanode reported of a block the namespace does not know, whose id or generation stamp lies beyond the
 * database's id counters: the database is older than the datanodes' contents (it was restored). Recorded once per
 * block (the first datanode to report it).
 */
public record FutureBlock(long blockId, long generationStamp, long numBytes, String datanodeUuid, long reportedAtMs) {
}
