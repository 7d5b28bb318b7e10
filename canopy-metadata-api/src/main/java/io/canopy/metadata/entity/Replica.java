package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * A finalized replica of a block reported by a datanode storage. A corrupt one ({@link #corrupt()}) stays recorded,
 * so that it is deleted on its datanode in time and never chosen as a target again, but counts for nothing:
 * {@code corruptGenerationStamp} is the stamp it has on its datanode (a deletion must name it), 0 for good replicas.
 */
public record Replica(long inodeId, long blockId, String storageId, CorruptReason corruptReason,
    long corruptGenerationStamp) {
  public Replica {
    Objects.requireNonNull(storageId, "storageId");
    Objects.requireNonNull(corruptReason, "corruptReason");
    if (corruptReason == CorruptReason.NONE && corruptGenerationStamp != 0) {
      throw new IllegalArgumentException("a good replica of block " + blockId + " carries no corrupt stamp");
    }
  }

  /** A good replica. */
  public Replica(long inodeId, long blockId, String storageId) {
    this(inodeId, blockId, storageId, CorruptReason.NONE, 0);
  }

  public ReplicaKey key() {
    return new ReplicaKey(inodeId, blockId, storageId);
  }

  public boolean corrupt() {
    return corruptReason != CorruptReason.NONE;
  }

  /** This replica known to be corrupt for {@code reason}, holding generation stamp {@code generationStamp}. */
  public Replica markedCorrupt(CorruptReason reason, long generationStamp) {
    if (reason == CorruptReason.NONE) {
      throw new IllegalArgumentException("a corrupt replica needs a reason");
    }
    return new Replica(inodeId, blockId, storageId, reason, generationStamp);
  }

  /** The same replica recorded under another file (concat moves blocks between files). */
  public Replica ofFile(long newInodeId) {
    return new Replica(newInodeId, blockId, storageId, corruptReason, corruptGenerationStamp);
  }
}
