package io.canopy.client;

import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/** What {@link CanopyClientProtocol#readSmallFile} answers: the located blocks, and the bytes or null. */
public record SmallFileRead(LocatedBlocks blocks, byte[] data) {
  /** Whether the file's bytes came with the answer (it is stored in the database). */
  public boolean inDatabase() {
    return data != null;
  }
}
