package io.canopy.metadata.entity;

/** A block of a file, partitioned by the file's inode id. */
public record Block(long inodeId, long blockId, int index, long numBytes, long generationStamp, BlockState state) {
  public Block {
    if (index < 0 || numBytes < 0) {
      throw new IllegalArgumentException("block " + blockId + ": bad index " + index + " or length " + numBytes);
    }
  }

  public BlockKey key() {
    return new BlockKey(inodeId, blockId);
  }

  public Block with(long newNumBytes, long newGenerationStamp, BlockState newState) {
    return new Block(inodeId, blockId, index, newNumBytes, newGenerationStamp, newState);
  }
}
