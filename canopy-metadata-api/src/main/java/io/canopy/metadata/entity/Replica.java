package io.canopy.metadata.entity;

/** A finalized replica of a block reported by a datanode storage. */
public record Replica(long inodeId, long blockId, String storageId) {
  public ReplicaKey key() {
    return new ReplicaKey(inodeId, blockId, storageId);
  }
}
