package io.canopy.namenode.tx;

/**
 * A read of cluster-wide tables outside the inode hierarchy (block owners, lease and replication-queue pages, a
 * storage's replicas): no path locks, a read-only transaction, safe to re-run.
 *
 * @param <T> result returned to the caller
 */
public interface ClusterRead<T> extends Operation<T> {
  @Override
  default LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  default boolean readOnly() {
    return true;
  }

  @Override
  default boolean idempotent() {
    return true;
  }
}
