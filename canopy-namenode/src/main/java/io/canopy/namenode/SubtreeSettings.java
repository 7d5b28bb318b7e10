package io.canopy.namenode;

/**
 * The subtree protocol's bounds (design 017): inodes above which a recursive delete takes it, inodes per transaction
 * of it, transactions one operation runs at once, and how long other operations wait for a directory it holds.
 */
public record SubtreeSettings(long protocolThreshold, int batchSize, int threads, long waitMs) {
  public SubtreeSettings {
    if (protocolThreshold < 1) {
      throw new IllegalArgumentException(NameNodeConfig.SUBTREE_PROTOCOL_THRESHOLD + " must be at least 1, got "
          + protocolThreshold);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException(NameNodeConfig.SUBTREE_BATCH_SIZE + " must be at least 1, got " + batchSize);
    }
    if (threads < 1) {
      throw new IllegalArgumentException(NameNodeConfig.SUBTREE_THREADS + " must be at least 1, got " + threads);
    }
    if (waitMs < 0) {
      throw new IllegalArgumentException(NameNodeConfig.SUBTREE_WAIT_MS + " must not be negative, got " + waitMs);
    }
  }
}
