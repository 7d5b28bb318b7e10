package org.apache.hadoop.hdfs.server.datanode;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * Canopy's tests: asks a stock DataNode's block scanner to verify a replica soon, as the DataNode itself does when a
 * read of it fails ({@code BlockScanner.markSuspectBlock} is package-private, hence this class in its package). The
 * scanner reads the replica, checks its checksums, and reports it to the namenodes with reportBadBlocks when they fail.
 */
public final class SuspectBlocks {
  private SuspectBlocks() {
  }

  public static void markSuspect(DataNode dataNode, String storageId, ExtendedBlock block) {
    dataNode.getBlockScanner().markSuspectBlock(storageId, block);
  }
}
