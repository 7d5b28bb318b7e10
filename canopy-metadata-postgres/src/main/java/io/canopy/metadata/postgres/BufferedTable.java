package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;

/** A table whose buffered writes are sent at commit. */
interface BufferedTable {
  void flush() throws StoreException;

  void clear();
}
