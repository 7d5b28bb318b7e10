package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * The leader's cleanup of a subtree operation whose namenode died (design 017; docs/references.md [HopsFS-Thesis]
 * s.4.1.6): clears the directory's flag if that namenode still holds it and removes the operation's row, fenced by the
 * leader's term. What the operation did stays: the namespace it left is consistent, and a retry of the call finishes
 * it. Answers whether it cleared a flag.
 */
public final class ClearDeadSubtreeLockOp implements Operation<Boolean> {
  private final SubtreeOperation dead;
  private final long term;

  public ClearDeadSubtreeLockOp(SubtreeOperation dead, long term) {
    this.dead = dead;
    this.term = term;
  }

  @Override
  public String name() {
    return "clearDeadSubtreeLock";
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    // the dead namenode's own flag is this step's to clear
    return LockRequest.inode(dead.rootId(), LockMode.EXCLUSIVE).insideSubtreeOperation(dead.rootId());
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    LeaderFence.check(context.cluster().variables(), term);
    Inode root = context.inodeLockedById();
    boolean cleared = root != null && root.subtreeLockOwner() == dead.namenodeId();
    if (cleared) {
      context.updateInode(root.withSubtreeLockOwner(Inode.NO_SUBTREE_LOCK));
    }
    if (root == null || root.subtreeLockOwner() == dead.namenodeId() || !root.subtreeLocked()) {
      context.cluster().subtreeOperations().delete(dead.rootId()); // not a row another namenode took over
    }
    return cleared;
  }
}
