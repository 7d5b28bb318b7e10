package io.canopy.metadata;

import java.io.IOException;

/** A metadata-store failure that retrying the whole operation will not fix (constraint violation, bad schema...). */
public class StoreException extends IOException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }
}
