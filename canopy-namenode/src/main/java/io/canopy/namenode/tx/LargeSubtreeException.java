package io.canopy.namenode.tx;

import java.io.IOException;

/**
 * A subtree larger than an operation does in one transaction ({@link TransactionContext#subtree(
 * io.canopy.metadata.entity.Inode, io.canopy.metadata.LockMode, long)}): the transaction is rolled back and the
 * operation runs through the subtree protocol instead (design 017). Never reaches a client.
 */
public final class LargeSubtreeException extends IOException {
  private static final long serialVersionUID = 1L;

  public LargeSubtreeException(String path, long maxInodes) {
    super(path + " has more than " + maxInodes + " inodes: too many for one transaction");
  }
}
