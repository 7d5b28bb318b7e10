package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.quota.SubtreeUsage;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.ipc.RetriableException;

/**
 * How a move between quota directories or a new quota counts the subtree it charges (design 017): in its own
 * transaction, under exclusive locks, up to {@code maxInodes} inodes (past it the operation is refused with
 * {@link io.canopy.namenode.tx.LargeSubtreeException}, changing nothing, for the caller to take the subtree protocol);
 * or, for the directory {@code heldRootId} that the protocol holds for namenode {@code owner}, the usage its quiesce
 * phase counted ({@code heldUsage}: its inodes and closed files) and the files that were open then, read again:
 * nothing else below it changed since, every operation that could have waits for its flag (by-id calls change only
 * open files).
 */
public record SubtreeUsageSource(long maxInodes, long heldRootId, long owner, Usage heldUsage,
    List<Long> heldOpenFiles) {
  /** Counted in the transaction, whatever its size: for tools and tests. */
  public static final SubtreeUsageSource UNBOUNDED = upTo(Long.MAX_VALUE);

  public SubtreeUsageSource {
    if (maxInodes < 1) {
      throw new IllegalArgumentException("a subtree counted in a transaction has at least 1 inode, got " + maxInodes);
    }
    if ((heldRootId >= 0) != (heldUsage != null)) {
      throw new IllegalArgumentException("a held directory comes with its counted usage, and only then");
    }
    heldOpenFiles = List.copyOf(heldOpenFiles);
  }

  /** Counted in the transaction, up to {@code maxInodes}. */
  public static SubtreeUsageSource upTo(long maxInodes) {
    return new SubtreeUsageSource(maxInodes, -1, -1, null, List.of());
  }

  /**
   * The directory {@code rootId} held for namenode {@code owner}: {@code closedUsage} counts its inodes and its
   * closed files' storage space; {@code openFiles} were open when counted, their blocks read again here.
   */
  static SubtreeUsageSource held(long maxInodes, long rootId, long owner, Usage closedUsage, List<Long> openFiles) {
    return new SubtreeUsageSource(maxInodes, rootId, owner, closedUsage, openFiles);
  }

  /** The operation's locks, passing over the flag of the held directory (its own operation's). */
  LockRequest guard(LockRequest locks) {
    return heldRootId >= 0 ? locks.insideSubtreeOperation(heldRootId) : locks;
  }

  /** The usage of the subtree under {@code directory}, which the transaction locked exclusively. */
  Usage usageOf(TransactionContext context, Inode directory, String path) throws IOException {
    if (directory.id() == heldRootId) {
      SubtreeSteps.checkMembership(context, owner, path); // once evicted, its flag may have been ignored
      if (directory.subtreeLockOwner() != owner) {
        // this namenode was taken for dead (evicted) and another cleared its flag: the count may be stale now
        throw new RetriableException(path + ": the subtree operation of namenode " + owner + " lost its hold on "
            + "the directory (held now by " + directory.subtreeLockOwner() + "); retry");
      }
      if (heldOpenFiles.isEmpty()) {
        return heldUsage;
      }
      // by-id calls (a writer's addBlock, complete, a lease recovery) may have changed them since: read them again,
      // locked, so the count is exact at this transaction's commit
      List<Inode> open = context.lockHeldInodesById(heldOpenFiles, LockMode.EXCLUSIVE);
      long space = SubtreeUsage.of(context, open, LockMode.EXCLUSIVE).storageSpace();
      return new Usage(heldUsage.namespace(), heldUsage.storageSpace() + space);
    }
    return SubtreeUsage.of(context, context.subtree(directory, LockMode.EXCLUSIVE, maxInodes), LockMode.EXCLUSIVE);
  }
}
