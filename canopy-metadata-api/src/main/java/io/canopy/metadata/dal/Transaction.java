package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;

/**
 * One read-committed transaction. Reads go to the store at once (taking the requested row locks); inserts,
 * updates and deletes are buffered per table and flushed in batches by {@link #commit()}. A transaction is used
 * by one thread.
 */
public interface Transaction extends AutoCloseable {
  InodeTable inodes();

  BlockTable blocks();

  BlockLookupTable blockLookup();

  ReplicaTable replicas();

  UcReplicaTable ucReplicas();

  LeaseTable leases();

  LeasePathTable leasePaths();

  DatanodeTable datanodes();

  StorageTable storages();

  InvalidationTable invalidations();

  /** Flushes buffered writes and commits. After a failure the transaction is rolled back and unusable. */
  void commit() throws StoreException;

  /** Discards buffered writes and releases locks; safe to call more than once. */
  void rollback();

  /** Number of statements sent to the store so far (round trips), for budgets and metrics. */
  int roundTrips();

  /** Rolls back when not committed. */
  @Override
  void close();
}
