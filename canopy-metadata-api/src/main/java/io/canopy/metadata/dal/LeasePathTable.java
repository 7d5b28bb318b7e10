package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.LeasePath;
import java.util.List;

/** Files held under a lease, partitioned by holder. */
public interface LeasePathTable {
  /** Partition-scoped scan of one holder's files. */
  List<LeasePath> ofHolder(String holder) throws StoreException;

  /**
   * One page of a holder's files in inode id order: those after {@code afterInodeId}, at most {@code limit}
   * (partition-scoped).
   */
  List<LeasePath> ofHolder(String holder, long afterInodeId, int limit) throws StoreException;

  void insert(LeasePath leasePath);

  void delete(LeasePath leasePath);
}
