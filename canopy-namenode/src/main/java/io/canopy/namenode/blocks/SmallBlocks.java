package io.canopy.namenode.blocks;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The block of a file whose bytes are stored in the database (design 016, decision 1). Such a file has one block row,
 * whose id is the negated inode id: negative ids never collide with datanode blocks (HDFS's block ids are positive),
 * tell every code path which kind of block it holds, need no counter, no {@code block_lookup} row, and lead the
 * small-file read endpoint from a client's block id straight to the file's bytes. The block is COMPLETE and has no replicas; a
 * file keeps it as its first block if an append later writes on to datanodes.
 */
public final class SmallBlocks {
  private SmallBlocks() {
  }

  /** Whether {@code blockId} is a database-resident block. */
  public static boolean isSmall(long blockId) {
    return blockId < 0;
  }

  /** The id of {@code inodeId}'s database-resident block. */
  public static long blockIdOf(long inodeId) {
    if (inodeId <= 0) {
      throw new IllegalArgumentException("inode id " + inodeId + " cannot own a database-resident block");
    }
    return -inodeId;
  }

  /** The inode a database-resident block belongs to. */
  public static long inodeOf(long blockId) {
    if (!isSmall(blockId)) {
      throw new IllegalArgumentException("block " + blockId + " is stored on datanodes, not in the database");
    }
    return -blockId;
  }

  /** The file's database-resident block, or null: only ever its first block. */
  public static Block of(List<Block> blocks) {
    return !blocks.isEmpty() && isSmall(blocks.get(0).blockId()) ? blocks.get(0) : null;
  }

  /** Whether the file's only block is database-resident: the file is a small file read whole from the database. */
  public static boolean whollySmall(List<Block> blocks) {
    return blocks.size() == 1 && isSmall(blocks.get(0).blockId());
  }

  /**
   * The bytes of {@code file}, which holds a database-resident block; a file with such a block and no bytes breaks an
   * invariant, reported with its path.
   */
  public static byte[] storedBytes(FileTables tables, Inode file, Object path) throws IOException {
    return present(tables.smallFiles().get(file.id()), file, path);
  }

  /**
   * {@link #storedBytes(FileTables, Inode, Object)} for a read: the bytes read with the file's rows when they were
   * ({@link FileData#smallDataRead()}), else read now.
   */
  public static byte[] storedBytes(FileData data, FileTables tables, Inode file, Object path) throws IOException {
    return data.smallDataRead() ? present(data.smallData(), file, path) : storedBytes(tables, file, path);
  }

  private static byte[] present(Optional<byte[]> bytes, Inode file, Object path) throws IOException {
    return bytes.orElseThrow(() -> new IOException("invariant: " + path + " (inode " + file.id()
        + ") has database-resident block " + blockIdOf(file.id()) + " but no bytes stored"));
  }

  /**
   * Stores {@code data} as {@code file}'s database-resident bytes with a new generation stamp, replacing its block
   * {@code previous} (null: the file has no block yet); returns the block row written.
   */
  public static Block store(FileTables tables, Inode file, Block previous, byte[] data, long generationStamp)
      throws StoreException {
    Block block = new Block(file.id(), blockIdOf(file.id()), 0, data.length, generationStamp, BlockState.COMPLETE);
    if (previous == null) {
      tables.blocks().insert(block);
      tables.smallFiles().insert(file.id(), data);
    } else {
      if (previous.blockId() != block.blockId() || previous.index() != 0) {
        throw new IllegalStateException("block " + previous.blockId() + " of inode " + file.id()
            + " is not its database-resident block");
      }
      tables.blocks().update(block);
      tables.smallFiles().put(file.id(), data);
    }
    return block;
  }
}
