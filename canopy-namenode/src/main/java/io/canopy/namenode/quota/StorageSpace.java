package io.canopy.namenode.quota;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import java.util.List;

/**
 * The storage space a file is charged (HDFS's storagespaceConsumed): every block's bytes times the file's
 * replication, where a block still being written or recovered counts as a whole preferred block (its final length
 * is not known; HDFS charges the same when it allocates a block). Canopy charges a block's real length from its
 * commit on, HDFS from its completion: see docs/compatibility/quota.md.
 */
public final class StorageSpace {
  private StorageSpace() {
  }

  /** The bytes {@code block} of {@code file} is charged, before replication. */
  public static long ofBlock(Inode file, Block block) {
    return isBeingWritten(block.state()) ? file.preferredBlockSize() : block.numBytes();
  }

  /** Whether a block in {@code state} is charged a whole preferred block. */
  public static boolean isBeingWritten(BlockState state) {
    return state == BlockState.UNDER_CONSTRUCTION || state == BlockState.UNDER_RECOVERY;
  }

  /** The storage space of {@code file} with {@code blocks} (all of its blocks). */
  public static long ofFile(Inode file, List<Block> blocks) {
    long bytes = 0;
    for (Block block : blocks) {
      bytes += ofBlock(file, block);
    }
    return bytes * file.replication();
  }

  /** The storage space of a closed file: its blocks are complete, so its size is what they hold. */
  public static long ofClosedFile(Inode file) {
    if (file.underConstruction()) {
      throw new IllegalArgumentException("file " + file.id() + " is open: its blocks are needed");
    }
    return file.size() * file.replication();
  }
}
