package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import java.util.Optional;

/**
 * The retry cache (docs/references.md [Design] s.6), partitioned by client id. An entry is inserted in the transaction
 * of the call it records, so it exists exactly when the call's effects committed; inserting an entry whose key exists
 * fails the commit, which is how a retry racing its own first attempt finds out that the first one won.
 */
public interface RetryCacheTable {
  Optional<RetryEntry> get(RetryKey key) throws StoreException;

  void insert(RetryEntry entry);
}
