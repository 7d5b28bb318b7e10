package io.canopy.namenode.tx;

import io.canopy.metadata.entity.Inode;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The subtree-lock flags (design 017) one attempt of an operation honours: every flag but those of namenodes the
 * runner found dead (their operations will not finish; the namespace they left is consistent) and the flag of the
 * subtree operation the attempt belongs to ({@link LockRequest#insideSubtreeOperation}).
 */
final class SubtreeFlags {
  private final Set<Long> deadOwners;

  SubtreeFlags(Set<Long> deadOwners) {
    this.deadOwners = Set.copyOf(deadOwners);
  }

  /** Throws when {@code inode} is held by a live subtree operation other than the one on {@code ownRoot} (-1: none). */
  void check(Inode inode, long ownRoot, Supplier<String> path) throws SubtreeLockedException {
    if (inode.subtreeLocked() && inode.id() != ownRoot) {
      check(inode.id(), inode.subtreeLockOwner(), path);
    }
  }

  /** Throws when the subtree operation on {@code rootId} of namenode {@code owner} is one to wait for. */
  void check(long rootId, long owner, Supplier<String> path) throws SubtreeLockedException {
    if (!deadOwners.contains(owner)) {
      throw new SubtreeLockedException(path.get(), rootId, owner);
    }
  }
}
