package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;

/**
 * One read-committed transaction. Reads go to the store at once (taking the requested row locks); inserts,
 * updates and deletes are buffered per table and flushed in batches by {@link #commit()}. A transaction is used
 * by one thread.
 */
public interface Transaction extends AutoCloseable {
  InodeTable inodes();

  /** POSIX ACL entries of inodes (those whose permission marks an ACL). */
  AclTable acls();

  BlockTable blocks();

  BlockLookupTable blockLookup();

  ReplicaTable replicas();

  UcReplicaTable ucReplicas();

  LeaseTable leases();

  LeasePathTable leasePaths();

  DatanodeTable datanodes();

  StorageTable storages();

  InvalidationTable invalidations();

  ReplicationQueueTable replicationQueue();

  RetryCacheTable retryCache();

  NamenodeTable namenodes();

  VariableTable variables();

  /** The id counters, for moving them past ids seen in datanode reports (see {@link IdCounterTable}). */
  IdCounterTable idCounters();

  /** Blocks reported from beyond the id counters (see {@link FutureBlockTable}). */
  FutureBlockTable futureBlocks();

  XAttrTable xattrs();

  /** The bytes of small files stored with their metadata. */
  SmallFileTable smallFiles();

  /** Directory quotas and usage (see {@link QuotaTable}). */
  QuotaTable quotas();

  /** The running subtree operations (see {@link SubtreeOperationTable}). */
  SubtreeOperationTable subtreeOperations();

  /** A new, empty batch of reads sent together in one round trip (see {@link ReadBatch}). */
  ReadBatch batch();

  /** True for transactions begun with {@link io.canopy.metadata.MetadataStore#beginReadOnly}. */
  boolean readOnly();

  /**
   * Flushes buffered writes and commits, in as few round trips as the engine allows (ideally one for a small
   * transaction). After a failure the transaction is rolled back and unusable. A read-only transaction commits
   * without contacting the store.
   */
  void commit() throws StoreException;

  /** Discards buffered writes and releases locks; safe to call more than once. */
  void rollback();

  /**
   * Number of round trips to the store so far: each exchange of request and answer counts once, however many
   * statements it carried (a {@link ReadBatch}, or writes sent together, is one). For budgets and metrics.
   */
  int roundTrips();

  /**
   * Number of statements sent so far, a statement being one request the engine executes (a read, a write of one
   * or more rows, the commit); several may share a round trip. For metrics.
   */
  int statements();

  /** Rolls back when not committed. */
  @Override
  void close();
}
