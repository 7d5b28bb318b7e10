package io.canopy.metadata;

import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;

/**
 * The engine-neutral metadata store (docs/references.md [Design] s.5). Exposes what a partitioned NewSQL engine does
 * cheaply: primary-key reads, batched primary-key reads, partition-scoped scans, each with a lock mode; writes buffered
 * and flushed at commit. No SQL crosses this interface except through {@link #adminQuery}, which exists for operators
 * only.
 */
public interface MetadataStore extends AutoCloseable {
  /** A hint meaning "no particular partition". */
  long NO_PARTITION_HINT = Long.MIN_VALUE;

  /**
   * Begins a read-committed transaction. {@code partitionHint} names the partition most of its rows live in
   * (a distribution-aware engine starts the transaction there); engines without partitions ignore it.
   */
  Transaction begin(long partitionHint) throws StoreException;

  /**
   * Begins a read-only transaction: it may not write (commit refuses buffered writes), and each of its reads or
   * {@link io.canopy.metadata.dal.ReadBatch}es sees one consistent committed state, as if under the locks it
   * requested, without waiting for writers (an engine may take the locks for the length of the batch, or read a
   * snapshot, as PostgreSQL does). A consistent read must therefore happen in one batch. It commits without a round
   * trip.
   */
  Transaction beginReadOnly(long partitionHint) throws StoreException;

  /**
   * Deletes up to {@code limit} retry-cache entries that expired before {@code nowMs}, in its own transaction;
   * returns how many. Housekeeping, not on any client's path.
   */
  int purgeExpiredRetryEntries(long nowMs, int limit) throws StoreException;

  /** Allocates {@code count} consecutive ids of one kind in its own committed transaction. */
  IdRange allocateIds(IdKind kind, int count) throws StoreException;

  /** Cluster-wide block counts for the startup safe mode (see {@link BlockCensus}). */
  BlockCensus blockCensus();

  /** The namespace identity, or null when the store holds no namespace yet. */
  NamespaceIdentity identity() throws StoreException;

  /**
   * Creates an empty namespace (identity, root inode, id sequences). Fails if one exists unless {@code force},
   * in which case every file-system table is emptied first.
   */
  void format(NamespaceIdentity identity, Inode root, boolean force) throws StoreException;

  /** Runs a read-only query in the engine's native language, for operators ({@code canopy sql}). */
  QueryResult adminQuery(String query, int maxRows) throws StoreException;

  /** Human-readable description of the engine and where it is, without credentials. */
  String describe();

  @Override
  void close();
}
