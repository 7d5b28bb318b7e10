package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.NamenodeRecord;
import java.util.List;
import java.util.Optional;

/** Namenode membership descriptors: a small cluster-wide table, read whole every election round. */
public interface NamenodeTable {
  Optional<NamenodeRecord> get(long id, LockMode lock) throws StoreException;

  /** Every descriptor, in id order. */
  List<NamenodeRecord> all() throws StoreException;

  void insert(NamenodeRecord namenode);

  void update(NamenodeRecord namenode);

  void delete(long id);
}
