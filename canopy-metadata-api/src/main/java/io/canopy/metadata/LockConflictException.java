package io.canopy.metadata;

/**
 * A lock request refused at once because another transaction holds the lock, by an engine that does not queue lock
 * requests (Ignite 3's wait-die: the younger transaction fails instead of waiting, design 020). Nothing of the
 * transaction took effect. Where PostgreSQL's request would wait for the holder, the namenode's transaction runner
 * re-runs the operation after a backoff, bounded by time as a lock wait is, without using up the attempts that count
 * the database's failures.
 */
public class LockConflictException extends TransientStoreException {
  public LockConflictException(String message, Throwable cause) {
    super(message, cause, false);
  }
}
