package io.canopy.namenode.tx;

import io.canopy.metadata.entity.RetryKey;
import java.util.Objects;

/** The RPC call an operation serves: its retry-cache key and how many times the client retried it before. */
public record ClientCall(RetryKey key, int retryCount) {
  public ClientCall {
    Objects.requireNonNull(key, "key");
    if (retryCount < 0) {
      throw new IllegalArgumentException("negative retry count " + retryCount);
    }
  }
}
