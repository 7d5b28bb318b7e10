package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.StorageRecord;
import java.util.List;

/** Datanode storages, partitioned by datanode uuid. */
public interface StorageTable {
  /** Partition-scoped scan of one datanode's storages. */
  List<StorageRecord> ofDatanode(String datanodeUuid) throws StoreException;

  /** Every storage of the cluster (small cluster-wide table). */
  List<StorageRecord> all() throws StoreException;

  void insert(StorageRecord storage);

  void update(StorageRecord storage);

  void delete(String datanodeUuid, String storageId);
}
