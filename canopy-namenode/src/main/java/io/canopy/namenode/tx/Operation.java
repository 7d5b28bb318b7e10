package io.canopy.namenode.tx;

import java.io.IOException;

/**
 * One file-system operation: the locks it needs, resolved and taken before its body runs, and a body that works
 * only through the {@link TransactionContext}. The body may run more than once (transient failures re-run the
 * whole operation), so it must not have effects outside the transaction; post-commit effects go through
 * {@link TransactionContext#afterCommit}.
 *
 * @param <T> result returned to the caller
 */
public interface Operation<T> {
  /** Name used in metrics and logs, e.g. {@code create}. */
  String name();

  LockRequest locks();

  T execute(TransactionContext context) throws IOException;

  /**
   * True when running the operation again after it committed gives the caller the same answer and the namespace
   * the same state. Only such operations are re-run when the database connection broke during commit, leaving it
   * unknown whether the commit happened.
   */
  default boolean idempotent() {
    return false;
  }

  /**
   * True when the operation never writes: it runs in a read-only transaction, whose row locks last only for the
   * round trip that took them (so it must read what it needs consistently in the lock round trip) and whose commit
   * costs nothing.
   */
  default boolean readOnly() {
    return false;
  }
}
