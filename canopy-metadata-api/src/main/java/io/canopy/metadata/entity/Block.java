package io.canopy.metadata.entity;

/**
 * A block of a file, partitioned by the file's inode id. {@code recoveryId} is the generation stamp of the lease
 * recovery in progress on the block (HDFS's block recovery id), 0 when none was issued: the stamp the datanodes
 * recover the block to, which {@code commitBlockSynchronization} must name.
 */
public record Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state,
    long recoveryId) {
  public Block {
    if (index < 0 || numBytes < 0 || recoveryId < 0) {
      throw new IllegalArgumentException("block " + blockId + ": bad index " + index + ", length " + numBytes
          + " or recovery id " + recoveryId);
    }
  }

  /** A block with no recovery issued. */
  public Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state) {
    this(inodeId, blockId, index, numBytes, generationStamp, state, 0);
  }

  public BlockKey key() {
    return new BlockKey(inodeId, blockId);
  }

  /** The block with a new length, stamp and state; the recovery id is kept. */
  public Block with(long newNumBytes, long newGenerationStamp, BlockState newState) {
    return new Block(inodeId, blockId, index, newNumBytes, newGenerationStamp, newState, recoveryId);
  }

  /** The block under recovery to {@code newRecoveryId} (0: recovery requested, no id issued yet). */
  public Block underRecovery(long newRecoveryId) {
    return new Block(inodeId, blockId, index, numBytes, generationStamp, BlockState.UNDER_RECOVERY, newRecoveryId);
  }
}
