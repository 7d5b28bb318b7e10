package io.canopy.metadata.postgres;

/** A table whose buffered writes are sent at commit. */
interface BufferedTable {
  /** Queues the buffered writes on the transaction's {@link Jdbc} (deletes, then inserts, then updates). */
  void flush();

  void clear();
}
