package io.canopy.namenode.smallfiles;

import org.apache.hadoop.util.DataChecksum;

/**
 * The checksums a datanode keeps for a block, computed from the bytes: CRC32C of every 512-byte chunk, HDFS's
 * defaults ({@code dfs.checksum.type}, {@code dfs.bytes-per-checksum}), so a block read or checksummed here answers
 * what it would on a default cluster's datanodes.
 */
final class ChunkChecksums {
  static final int BYTES_PER_CHECKSUM = 512;

  private ChunkChecksums() {
  }

  /** CRC32C per chunk; with {@code sent} false, HDFS's NULL checksum (no checksum bytes) that a reader may ask. */
  static DataChecksum checksum(boolean sent) {
    return DataChecksum.newDataChecksum(sent ? DataChecksum.Type.CRC32C : DataChecksum.Type.NULL,
        BYTES_PER_CHECKSUM);
  }

  static int chunks(long length) {
    return (int) ((length + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM);
  }

  /** The checksums of {@code data[offset, offset + length)}, chunk by chunk from {@code offset}, big-endian. */
  static byte[] sums(DataChecksum checksum, byte[] data, int offset, int length) {
    byte[] sums = new byte[chunks(length) * checksum.getChecksumSize()];
    if (sums.length > 0) {
      checksum.calculateChunkedSums(data, offset, length, sums, 0);
    }
    return sums;
  }
}
