package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import java.util.Collection;
import java.util.List;

/** Finalized replicas, partitioned by inode id. Locked implicitly through their inode's lock. */
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
   * Up to {@code limit} replicas on one storage, ordered by (inode id, block id), strictly after {@code after} (null:
   * from the first). Leader housekeeping only (removing the replicas of a dead datanode page by page).
   */
  List<Replica> onStorage(String storageId, ReplicaKey after, int limit) throws StoreException;

  void insert(Replica replica);

  void delete(ReplicaKey key);
}
