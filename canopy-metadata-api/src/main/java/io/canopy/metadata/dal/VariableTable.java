package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import java.util.OptionalLong;

/**
 * Cluster-wide named values (the leader term, the election round time, ...). Reading one with a lock is how a
 * transaction fences itself: the leader term read {@link LockMode#SHARED} cannot change until the transaction ends.
 */
public interface VariableTable {
  /** The value of {@code name}, empty when it was never set or holds no number. */
  OptionalLong getLong(String name, LockMode lock) throws StoreException;

  /** Sets {@code name} to {@code value}, creating it when missing; applied at commit. */
  void putLong(String name, long value);
}
