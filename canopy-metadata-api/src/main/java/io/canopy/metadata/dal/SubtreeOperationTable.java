package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.SubtreeOperation;
import java.util.List;
import java.util.Optional;

/**
 * The running subtree operations (design 017), keyed by the directory each holds. A new operation reads them all,
 * with its root locked exclusively and its ancestors shared, to find one running below its root. They are few: one
 * per running delete, move or attribute change of a large directory.
 */
public interface SubtreeOperationTable {
  /** Every running operation, read without a lock, at most {@code limit} (in root id order). */
  List<SubtreeOperation> all(int limit) throws StoreException;

  /** The operation holding directory {@code rootId}, read without a lock (its directory's lock guards it). */
  Optional<SubtreeOperation> get(long rootId) throws StoreException;

  /** Records an operation, replacing one on the same root (a take-over from a dead namenode). */
  void put(SubtreeOperation operation);

  void delete(long rootId);
}
