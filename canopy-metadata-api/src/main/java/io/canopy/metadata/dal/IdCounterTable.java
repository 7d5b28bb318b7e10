package io.canopy.metadata.dal;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;

/**
 * The cluster-wide id counters {@link io.canopy.metadata.MetadataStore#allocateIds} hands ranges from, read and moved
 * inside a transaction: a datanode reporting a block whose id or stamp lies beyond them (a database restored from an
 * older copy) moves them past it, so no id is ever handed out twice.
 */
public interface IdCounterTable {
  /** The next value of {@code kind} not handed out to any namenode yet. */
  long next(IdKind kind, LockMode lock) throws StoreException;

  /** Raises the counter of {@code kind} so that the next value handed out is at least {@code next}; never lowers it. */
  void advanceTo(IdKind kind, long next);
}
