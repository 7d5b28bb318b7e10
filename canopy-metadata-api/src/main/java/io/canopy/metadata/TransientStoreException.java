package io.canopy.metadata;

/**
 * A failure that re-running the whole operation may fix: deadlock, lock timeout, serialization failure, lost
 * connection. The namenode's transaction runner retries these with bounded backoff.
 */
public class TransientStoreException extends StoreException {
  /** True when the commit may have taken effect although the reply was lost. */
  private final boolean outcomeUnknown;

  public TransientStoreException(String message, Throwable cause, boolean outcomeUnknown) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
