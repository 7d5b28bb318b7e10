package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;

/**
 * Ends a subtree operation that stopped before its last transaction (design 017): clears the directory's flag, if it
 * is still this namenode's, and removes the operation's row. What the operation did before stays, consistent. With
 * {@code startedMs} (else -1), only the operation that started then: not a newer one on the same directory.
 */
public final class SubtreeUnlockOp implements Operation<Void> {
  private final long rootId;
  private final long namenodeId;
  private final long startedMs;

  public SubtreeUnlockOp(long rootId, long namenodeId, long startedMs) {
    this.rootId = rootId;
    this.namenodeId = namenodeId;
    this.startedMs = startedMs;
  }

  @Override
  public String name() {
    return "subtreeUnlock";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(rootId, LockMode.EXCLUSIVE).insideSubtreeOperation(rootId);
  }

  @Override
  public Void execute(TransactionContext context) throws StoreException {
    Inode root = context.inodeLockedById();
    if (startedMs >= 0 && context.cluster().subtreeOperations().get(rootId)
        .map(row -> row.startedMs() != startedMs).orElse(false)) {
      return null; // a newer operation holds the directory now
    }
    if (root != null && root.subtreeLockOwner() == namenodeId) {
      context.updateInode(root.withSubtreeLockOwner(Inode.NO_SUBTREE_LOCK));
      context.cluster().subtreeOperations().delete(rootId);
    }
    return null;
  }
}
