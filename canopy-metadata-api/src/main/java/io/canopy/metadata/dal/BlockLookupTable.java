package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import java.util.Collection;
import java.util.Map;

/** Block id to inode id, so datanode reports (which name only blocks) find the file partition. */
public interface BlockLookupTable {
  /** Batched primary-key read; unknown block ids are absent from the result. */
  Map<Long, Long> inodesOf(Collection<Long> blockIds) throws StoreException;

  void insert(long blockId, long inodeId);

  void delete(long blockId);
}
