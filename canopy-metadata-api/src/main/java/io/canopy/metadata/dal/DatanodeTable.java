package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.DatanodeRecord;
import java.util.List;
import java.util.Optional;

/** Registered datanodes: a small cluster-wide table. */
public interface DatanodeTable {
  Optional<DatanodeRecord> get(String uuid, LockMode lock) throws StoreException;

  /** Every registered datanode (the table holds one row per datanode of the cluster). */
  List<DatanodeRecord> all() throws StoreException;

  /**
   * Inserts, or replaces a row inserted concurrently: a datanode registers with every namenode at once, and two
   * registrations of one datanode must both commit.
   */
  void insert(DatanodeRecord datanode);

  void update(DatanodeRecord datanode);

  void delete(String uuid);
}
