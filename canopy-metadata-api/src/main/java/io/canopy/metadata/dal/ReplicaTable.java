package io.canopy.metadata.dal;

import io.canopy.metadata.ReplicaBuckets;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.ReplicaWithBlock;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Finalized replicas, good and corrupt ({@link Replica#corrupt()}), partitioned by inode id. Locked implicitly through
 * their inode's lock.
 */
public interface ReplicaTable {
  /** Partition-scoped scan of a file's replicas. */
  List<Replica> ofFile(long inodeId) throws StoreException;

  /** The replicas of several files in one round trip. */
  List<Replica> ofFiles(Collection<Long> inodeIds) throws StoreException;

  /**
   * Replicas on one storage (an index scan across partitions). Used only to reconcile a full block report,
   * never on the client request path.
   */
  List<Replica> onStorage(String storageId) throws StoreException;

  /**
   * The replicas on one storage, each with its block's current stamp, length and state (an index scan across
   * partitions, no lock). Used only to reconcile a full block report, never on the client request path.
   */
  List<ReplicaWithBlock> onStorageWithBlocks(String storageId) throws StoreException;

  /**
   * {@link #onStorageWithBlocks(String)} restricted to the replicas whose bucket ({@link ReplicaBuckets#bucketOf}) is
   * one of {@code buckets}: the part of a full block report whose buckets did not match.
   */
  List<ReplicaWithBlock> onStorageWithBlocks(String storageId, Collection<Integer> buckets) throws StoreException;

  /**
   * The hash buckets of one storage ({@link ReplicaBuckets}): each bucket holding replicas, with their count and the
   * XOR of their hashes. The engine keeps them up to date in every transaction that writes replicas or blocks,
   * whatever the order of its writes, so they always equal what {@link ReplicaBuckets} computes from
   * {@link #onStorageWithBlocks(String)}. Read without a lock, for full block reports only.
   */
  Map<Integer, ReplicaBuckets.Bucket> buckets(String storageId) throws StoreException;

  /**
   * Bookkeeping of an engine that records bucket changes apart from the buckets (PostgreSQL: appended by its triggers,
   * so that writers share no row): moves up to {@code limit} recorded changes into the buckets, in this transaction,
   * and answers how many it moved (fewer than {@code limit}: none left). {@link #buckets} answers the same before
   * and after. The leader calls it periodically; an engine that updates its buckets in place answers 0.
   */
  int foldBucketChanges(int limit) throws StoreException;

  /**
   * Up to {@code limit} replicas on one storage, ordered by (inode id, block id), strictly after {@code after} (null:
   * from the first). Leader housekeeping only (removing the replicas of a dead datanode page by page).
   */
  List<Replica> onStorage(String storageId, ReplicaKey after, int limit) throws StoreException;

  /**
   * Up to {@code limit} good (not corrupt) replicas of every file, ordered by (inode id, block id, storage id),
   * strictly after {@code after} (null: from the first): a primary-key scan across partitions, no lock. Leader
   * housekeeping only (the placement scan looking for blocks held in one zone or rack).
   */
  List<Replica> good(ReplicaKey after, int limit) throws StoreException;

  /**
   * Up to {@code limit} corrupt replicas in (inode id, block id, storage id) order, strictly after {@code after} (null:
   * from the first): an index scan across partitions over corrupt rows only, for administrators' counts.
   */
  List<Replica> corrupt(ReplicaKey after, int limit) throws StoreException;

  /** Records a replica; a replica already recorded under the key stays as it is (a report repeated is a no-op). */
  void insert(Replica replica);

  /** Rewrites a recorded replica (marks it corrupt). */
  void update(Replica replica);

  void delete(ReplicaKey key);
}
