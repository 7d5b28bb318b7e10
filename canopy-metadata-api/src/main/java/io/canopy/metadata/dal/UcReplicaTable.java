package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.UcReplica;
import java.util.Collection;
import java.util.List;

/** Replicas of blocks under construction (pipeline targets), partitioned by inode id. */
public interface UcReplicaTable {
  /** Partition-scoped scan of a file's under-construction replicas. */
  List<UcReplica> ofFile(long inodeId) throws StoreException;

  /** The under-construction replicas of several files in one round trip. */
  List<UcReplica> ofFiles(Collection<Long> inodeIds) throws StoreException;

  void insert(UcReplica replica);

  void update(UcReplica replica);

  void delete(ReplicaKey key);
}
