package io.canopy.namenode.fs;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.SmallFilesConfig;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.FSLimitException.MaxDirectoryItemsExceededException;
import org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException;

/**
 * HDFS's namespace limits, read from the same keys with the same defaults. The path length and depth limits are
 * HDFS's constants, checked as a client's path is parsed ({@link FsPath#parse(String, String)}).
 */
public final class FsLimits {
  /** HDFS's bound on a file's blocks: every call reading a file holds all its blocks in memory. */
  private static final String MAX_BLOCKS_PER_FILE = DFSConfigKeys.DFS_NAMENODE_MAX_BLOCKS_PER_FILE_KEY;

  private final int maxComponentLength;
  private final int maxDirectoryItems;
  private final short minReplication;
  private final short maxReplication;
  private final long minBlockSize;
  private final int listingLimit;
  private final long maxBlocksPerFile;
  private final int smallFileMaxBytes;

  public FsLimits(Configuration conf) {
    this.maxComponentLength = conf.getInt(DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_KEY,
        DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_DEFAULT);
    this.maxDirectoryItems = conf.getInt(DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_KEY,
        DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_DEFAULT);
    this.minReplication = (short) NameNodeConfig.minReplication(conf);
    this.maxReplication = (short) conf.getInt(DFSConfigKeys.DFS_REPLICATION_MAX_KEY,
        DFSConfigKeys.DFS_REPLICATION_MAX_DEFAULT);
    this.minBlockSize = conf.getLongBytes(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY,
        DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_DEFAULT);
    this.listingLimit = Math.max(1, conf.getInt(DFSConfigKeys.DFS_LIST_LIMIT, DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT));
    this.maxBlocksPerFile = conf.getLong(MAX_BLOCKS_PER_FILE, DFSConfigKeys.DFS_NAMENODE_MAX_BLOCKS_PER_FILE_DEFAULT);
    this.smallFileMaxBytes = SmallFilesConfig.maxBytes(conf);
    if (maxBlocksPerFile < 1) {
      throw new IllegalArgumentException(MAX_BLOCKS_PER_FILE + "=" + maxBlocksPerFile + " must be at least 1");
    }
    if (minReplication < 1 || minReplication > maxReplication) {
      throw new IllegalArgumentException("dfs.namenode.replication.min=" + minReplication
          + " must be within [1, dfs.replication.max=" + maxReplication + "]");
    }
  }

  /** Checks a new name's length in bytes (0 disables the check, as in HDFS). */
  public void checkComponentLength(FsPath parent, String name) throws PathComponentTooLongException {
    int length = name.getBytes(StandardCharsets.UTF_8).length;
    if (maxComponentLength > 0 && length > maxComponentLength) {
      throw new PathComponentTooLongException(maxComponentLength, length, parent.toString(), name);
    }
  }

  public void checkDirectoryItems(FsPath directory, long currentItems) throws MaxDirectoryItemsExceededException {
    if (maxDirectoryItems > 0 && currentItems >= maxDirectoryItems) {
      throw new MaxDirectoryItemsExceededException(directory.toString(), maxDirectoryItems, currentItems + 1);
    }
  }

  /** HDFS's message and exception class for a replication factor out of range. */
  public void checkReplication(FsPath path, int replication) throws java.io.IOException {
    if (replication < minReplication) {
      throw new java.io.IOException("Requested replication factor of " + replication
          + " is less than the required minimum of " + minReplication + " for " + path);
    }
    if (replication > maxReplication) {
      throw new java.io.IOException("Requested replication factor of " + replication
          + " exceeds maximum of " + maxReplication + " for " + path);
    }
  }

  public void checkBlockSize(FsPath path, long blockSize) throws java.io.IOException {
    if (blockSize < minBlockSize) {
      throw new java.io.IOException("Specified block size is less than configured minimum value "
          + "(dfs.namenode.fs-limits.min-block-size): " + blockSize + " < " + minBlockSize + " for " + path);
    }
  }

  /** HDFS's check before a file gets one more block (FSDirWriteFileOp.validateAddBlock), with its message. */
  public void checkBlocksPerFile(int blocks) throws java.io.IOException {
    if (blocks >= maxBlocksPerFile) {
      throw new java.io.IOException("File has reached the limit on maximum number of blocks (" + MAX_BLOCKS_PER_FILE
          + "): " + blocks + " >= " + maxBlocksPerFile);
    }
  }

  /**
   * Canopy's check of a concat's result (HDFS checks none, so a file could grow past the limit there): the target
   * would have {@code blocks} blocks.
   */
  public void checkConcatBlocks(FsPath target, long blocks) throws java.io.IOException {
    if (blocks > maxBlocksPerFile) {
      throw new java.io.IOException("Cannot concat: " + target + " would have " + blocks + " blocks, more than the "
          + "limit on maximum number of blocks (" + MAX_BLOCKS_PER_FILE + ") of " + maxBlocksPerFile
          + "; concatenate fewer or smaller sources");
    }
  }

  public short minReplication() {
    return minReplication;
  }

  public int listingLimit() {
    return listingLimit;
  }

  /** {@link SmallFilesConfig#MAX_BYTES}: files up to this many bytes may be stored in the database; 0: none are. */
  public int smallFileMaxBytes() {
    return smallFileMaxBytes;
  }
}
