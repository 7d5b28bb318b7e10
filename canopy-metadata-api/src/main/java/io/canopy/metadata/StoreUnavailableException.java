package io.canopy.metadata;

/**
 * The store did not answer in time: no connection could be had within the connection timeout, or a statement got no
 * answer within the socket timeout (a hung, stopped or overloaded database). Transient, but the namenode does not
 * re-run the operation itself, since every attempt would wait the whole timeout again while holding a handler: it
 * answers the client with a retriable error at once, and the client retries after its own backoff.
 */
public class StoreUnavailableException extends TransientStoreException {
  public StoreUnavailableException(String message, Throwable cause, boolean outcomeUnknown) {
    super(message, cause, outcomeUnknown);
  }
}
