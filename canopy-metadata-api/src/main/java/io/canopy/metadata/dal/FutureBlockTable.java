package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.FutureBlock;
import java.util.Collection;
import java.util.Map;

/**
 * Blocks from the future (see {@link FutureBlock}), keyed by block id. A small table that is empty except after a
 * database was restored from an older copy; while it holds rows the cluster stays in safe mode.
 */
public interface FutureBlockTable {
  /** The recorded rows among {@code blockIds} (batched primary-key read, no lock). */
  Map<Long, FutureBlock> get(Collection<Long> blockIds) throws StoreException;

  /** Records a block; a block already recorded stays as it is. */
  void insert(FutureBlock block);

  /** Forgets every recorded block (an operator forced safe mode off, accepting their loss). */
  void deleteAll();
}
