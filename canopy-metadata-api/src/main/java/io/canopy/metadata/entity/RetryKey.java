package io.canopy.metadata.entity;

import java.util.Objects;

/** A client call as Hadoop RPC names it: the client's id (hex of its 16 bytes) and the call id. */
public record RetryKey(String clientId, int callId) {
  public RetryKey {
    Objects.requireNonNull(clientId, "clientId");
    if (clientId.isEmpty()) {
      throw new IllegalArgumentException("empty client id");
    }
  }
}
