package io.canopy.metadata;

import java.util.Collection;

/**
 * Cluster-wide block counts for the startup safe mode (HDFS's blockTotal and blockSafe): index scans across every
 * partition, each in its own read-only transaction. Run by the leader about once a second while safe mode lasts,
 * never on a client's path.
 */
public interface BlockCensus {
  /**
   * Blocks in the COMPLETE state stored on datanodes (the blocks safe mode waits for): database-resident blocks, whose
   * ids are negative (small files, design 016), have no replicas to wait for and are not counted.
   */
  long completeBlocks() throws StoreException;

  /**
   * COMPLETE blocks with at least {@code minReplicas} good (not corrupt) replicas on the given storages: the blocks
   * datanodes have confirmed since safe mode began.
   */
  long completeBlocksWithReplicasOn(Collection<String> storageIds, int minReplicas) throws StoreException;
}
