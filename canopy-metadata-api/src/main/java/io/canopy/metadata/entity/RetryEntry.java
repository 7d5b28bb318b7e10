package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * The recorded outcome of a non-idempotent call that committed: a retry of the same call (same client id and call
 * id, on any namenode) returns {@code result} instead of running again. Kept until {@code expiresAtMs}.
 */
public record RetryEntry(RetryKey key, String operation, byte[] result, long expiresAtMs) {
  public RetryEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(result, "result");
  }
}
