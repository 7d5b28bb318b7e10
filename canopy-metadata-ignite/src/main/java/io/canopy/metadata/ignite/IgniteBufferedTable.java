package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;

/** A table whose writes wait in the transaction until commit flushes them, in a fixed order of tables. */
interface IgniteBufferedTable {
  /** Sends the buffered writes inside the session's transaction. */
  void flush() throws StoreException;

  /** Whether no write waits. */
  boolean isEmpty();

  /** Forgets the buffered writes (rollback). */
  void clear();
}
