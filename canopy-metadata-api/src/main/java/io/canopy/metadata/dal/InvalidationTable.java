package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.InvalidatedBlock;
import java.util.Collection;
import java.util.List;

/** Replicas datanodes must delete, partitioned by datanode uuid. */
public interface InvalidationTable {
  /**
   * Partition-scoped scan of one datanode's pending deletions, at most {@code limit}, locked exclusively (not locked
   * in a read-only transaction, see {@link io.canopy.metadata.MetadataStore#beginReadOnly}).
   */
  List<InvalidatedBlock> ofDatanode(String datanodeUuid, int limit) throws StoreException;

  /**
   * The pending deletions of block {@code blockId} on the given datanodes (batched primary-key read, not locked):
   * which of its replicas are already doomed.
   */
  List<InvalidatedBlock> ofBlock(long blockId, Collection<String> datanodeUuids) throws StoreException;

  void insert(InvalidatedBlock block);

  void delete(InvalidatedBlock block);
}
