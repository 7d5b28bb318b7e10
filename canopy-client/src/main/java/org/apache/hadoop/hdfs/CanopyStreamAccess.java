package org.apache.hadoop.hdfs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The three package-private members of Hadoop's client that Canopy's {@code CanopyFileSystem} needs (design 016),
 * reached from Hadoop's own package so the compiler checks them: ending a write stream without completing its file
 * (the file was closed by Canopy's completeSmall instead), opening a read stream on located blocks already fetched (by
 * Canopy's readSmallFile, in the same call that would have returned the bytes), and a path's name on the file system.
 * Nothing else of Canopy lives in this package.
 */
public final class CanopyStreamAccess {
  private CanopyStreamAccess() {
  }

  /**
   * Stops {@code out}'s streamer and ends its lease renewal without a call to the namenode: for a stream whose file
   * was closed another way. {@code out} must not be used or closed afterwards.
   */
  public static void abandon(DFSOutputStream out) throws IOException {
    out.abort();
  }

  /** A read stream over {@code blocks} (the file's located blocks from offset 0), as DFSClient's open makes one. */
  public static DFSInputStream open(DFSClient client, String src, boolean verifyChecksum, LocatedBlocks blocks)
      throws IOException {
    if (blocks.getErasureCodingPolicy() != null) {
      throw new IOException(src + " is erasure coded; Canopy stores no erasure-coded files");
    }
    return new DFSInputStream(client, src, verifyChecksum, blocks);
  }

  /** {@code path} (absolute) as the namenode names it, checked to belong to {@code fs}. */
  public static String pathName(DistributedFileSystem fs, Path path) {
    return fs.getPathName(path);
  }
}
