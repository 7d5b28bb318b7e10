package io.canopy.metadata.entity;

/**
 * A block of a file, partitioned by the file's inode id. {@code recoveryId} is the generation stamp of the lease
 * recovery in progress on the block (HDFS's block recovery id), 0 when none was issued: the stamp the datanodes
 * recover the block to, which {@code commitBlockSynchronization} must name. {@code truncateLength} is the length a
 * truncate in progress cuts the block to (HDFS's in-place truncate block), {@link #NO_TRUNCATE} when none is: the
 * block recovery then carries it to the datanodes.
 */
public record Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state,
    long recoveryId, long truncateLength) {
  /** {@link #truncateLength} of a block no truncate is cutting. */
  public static final long NO_TRUNCATE = -1;

  public Block {
    if (index < 0 || numBytes < 0 || recoveryId < 0 || truncateLength < NO_TRUNCATE) {
      throw new IllegalArgumentException("block " + blockId + ": bad index " + index + ", length " + numBytes
          + ", recovery id " + recoveryId + " or truncate length " + truncateLength);
    }
  }

  /** A block no truncate is cutting. */
  public Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state,
      long recoveryId) {
    this(inodeId, blockId, index, numBytes, generationStamp, state, recoveryId, NO_TRUNCATE);
  }

  /** A block with no recovery issued. */
  public Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state) {
    this(inodeId, blockId, index, numBytes, generationStamp, state, 0);
  }

  public BlockKey key() {
    return new BlockKey(inodeId, blockId);
  }

  /** The block with a new length, stamp and state; the recovery id and truncate length are kept. */
  public Block with(long newNumBytes, long newGenerationStamp, BlockState newState) {
    return new Block(inodeId, blockId, index, newNumBytes, newGenerationStamp, newState, recoveryId, truncateLength);
  }

  /** The block under recovery to {@code newRecoveryId} (0: recovery requested, no id issued yet). */
  public Block underRecovery(long newRecoveryId) {
    return new Block(inodeId, blockId, index, numBytes, generationStamp, BlockState.UNDER_RECOVERY, newRecoveryId,
        truncateLength);
  }

  /** True while a truncate is cutting the block ({@link #truncateLength} is its new length). */
  public boolean truncating() {
    return truncateLength != NO_TRUNCATE;
  }

  /** The block put under recovery (no id issued yet) by a truncate that cuts it to {@code newLength} bytes. */
  public Block truncatingTo(long newLength) {
    if (newLength < 0 || newLength >= numBytes) {
      throw new IllegalArgumentException("block " + blockId + " of " + numBytes + " bytes cannot be truncated to "
          + newLength);
    }
    return new Block(inodeId, blockId, index, numBytes, generationStamp, BlockState.UNDER_RECOVERY, 0, newLength);
  }

  /** The block with its truncate finished (or never started). */
  public Block withoutTruncate() {
    return new Block(inodeId, blockId, index, numBytes, generationStamp, state, recoveryId, NO_TRUNCATE);
  }

  /** The same block as block {@code newIndex} of another file (concat moves blocks between files). */
  public Block movedTo(long newInodeId, int newIndex) {
    return new Block(newInodeId, blockId, newIndex, numBytes, generationStamp, state, recoveryId, truncateLength);
  }
}
