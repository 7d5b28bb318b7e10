package io.canopy.metadata;

import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.util.Optional;

/**
 * The engine-neutral metadata store (docs/references.md [Design] s.5). Exposes what a partitioned NewSQL engine does
 * cheaply: primary-key reads, batched primary-key reads, partition-scoped scans, each with a lock mode; writes buffered
 * and flushed at commit. No query language crosses this interface: what only some engines offer (such as
 * operators' queries, {@link AdminQueries}) is an optional {@link #capability}.
 */
public interface MetadataStore extends AutoCloseable {
  /** Begins a read-committed transaction. */
  Transaction begin() throws StoreException;

  /**
   * Begins a read-only transaction: it may not write (commit refuses buffered writes), and each of its reads or
   * {@link io.canopy.metadata.dal.ReadBatch}es sees one consistent committed state, as if under the locks it
   * requested, without waiting for writers (an engine may take the locks for the length of the batch, or read a
   * snapshot). A consistent read must therefore happen in one batch. It commits without a round trip.
   */
  Transaction beginReadOnly() throws StoreException;

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

  /**
   * The optional capability {@code type} (e.g. {@link AdminQueries}) of this store, or empty when its engine lacks
   * it. A store that wraps another forwards this call to it.
   */
  default <T> Optional<T> capability(Class<T> type) {
    return Optional.empty();
  }

  /**
   * Whether a lock request that meets a conflicting lock waits for it (PostgreSQL) rather than being refused at once
   * ({@link LockConflictException}, Ignite's wait-die). The namenode queues its own operations' requests for the
   * same rows in front of an engine that refuses them, so they do not starve each other.
   */
  default boolean queuesLockRequests() {
    return true;
  }

  /** Human-readable description of the engine and where it is, without credentials. */
  String describe();

  @Override
  void close();
}
