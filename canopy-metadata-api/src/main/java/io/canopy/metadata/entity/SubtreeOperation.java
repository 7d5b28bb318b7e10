package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * A running subtree operation (design 017): the directory it holds ({@code rootId}, whose inode carries the
 * subtree-lock flag with the same namenode id), the namenode running it, which operation, the path it was asked for
 * (for messages: the directory may have moved since) and when it started.
 */
public record SubtreeOperation(long rootId, long namenodeId, String operation, String path, long startedMs) {
  public SubtreeOperation {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(path, "path");
    if (namenodeId <= 0) {
      throw new IllegalArgumentException("subtree operation on inode " + rootId + " without a namenode id");
    }
  }
}
