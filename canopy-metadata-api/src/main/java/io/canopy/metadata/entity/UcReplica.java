package io.canopy.metadata.entity;

/** A replica of a block under construction: a pipeline target and what it reported. */
public record UcReplica(long inodeId, long blockId, String storageId, UcReplicaState state, long generationStamp) {
  public ReplicaKey key() {
    return new ReplicaKey(inodeId, blockId, storageId);
  }
}
