package io.canopy.namenode.tx;

import io.canopy.metadata.TransientStoreException;

/** The namespace changed between resolving a path and locking it: re-run the operation. */
final class StalePathException extends TransientStoreException {
  StalePathException(String message) {
    super(message, null, false);
  }
}
