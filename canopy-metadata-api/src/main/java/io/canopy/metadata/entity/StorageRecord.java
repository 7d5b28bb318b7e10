package io.canopy.metadata.entity;

/** One storage (volume) of a datanode; partitioned by the datanode's uuid. Types use HDFS's StorageType names. */
public record StorageRecord(
    String datanodeUuid,
    String storageId,
    String storageType,
    boolean failed,
    long capacity,
    long dfsUsed,
    long remaining,
    long blockPoolUsed) {
}
