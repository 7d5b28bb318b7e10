package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The subtree protocol's first transaction (design 017; docs/references.md [HopsFS-Thesis] s.4.1.5): with the
 * directory locked exclusively and every ancestor shared, checks that no other subtree operation runs at or below it
 * (one above it would have flagged an ancestor, which stops this operation while its path is locked), then records
 * this one in {@code subtree_operations} and flags the directory with this namenode's id. From its commit on, every
 * other operation meeting the directory on its path waits. Answers the flagged directory, or null when the path is
 * no directory (anymore): the caller then runs the ordinary single-transaction operation.
 */
public final class SubtreeLockOp implements Operation<Inode> {
  /** Running subtree operations read at most: they are few (one per running large delete). */
  static final int MAX_RUNNING = 10_000;
  /** Ancestors walked up at most from a running operation's directory: a cycle is a broken namespace. */
  private static final int MAX_DEPTH = 10_000;

  private final FsPath path;
  private final String operation;
  private final PermissionChecker permissions;
  private final long namenodeId;
  private final LongSupplier clockMs;

  public SubtreeLockOp(FsPath path, String operation, PermissionChecker permissions, long namenodeId,
      LongSupplier clockMs) {
    if (path.isRoot()) {
      throw new IllegalArgumentException("the root is never a subtree operation's directory");
    }
    this.path = path;
    this.operation = operation;
    this.permissions = permissions;
    this.namenodeId = namenodeId;
    this.clockMs = clockMs;
  }

  @Override
  public String name() {
    return "subtreeLock";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.EXCLUSIVE, LockMode.SHARED).withSharedAncestorsFrom(1));
  }

  @Override
  public Inode execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseToLink(context, resolved, permissions);
    permissions.checkParentAccess(context, resolved, FsAction.WRITE);
    Inode target = resolved.target();
    if (target == null || !target.directory()) {
      return null;
    }
    for (SubtreeOperation running : context.cluster().subtreeOperations().all(MAX_RUNNING)) {
      // the flag on this directory itself was passed over by the lock check only if its namenode is dead: taken over
      if (running.rootId() != target.id() && isBelow(context, running.rootId(), target.id())) {
        context.conflictsWithSubtreeOperation(running.rootId(), running.namenodeId(), running.path());
      }
    }
    context.updateInode(target.withSubtreeLockOwner(namenodeId));
    context.cluster().subtreeOperations().put(new SubtreeOperation(target.id(), namenodeId, operation,
        path.toString(), clockMs.getAsLong()));
    return target.withSubtreeLockOwner(namenodeId);
  }

  /** Whether inode {@code id} is a descendant of {@code ancestorId}, walking up its committed parents. */
  private static boolean isBelow(TransactionContext context, long id, long ancestorId) throws IOException {
    List<Inode> chain = SubtreeSteps.committedChain(context, id); // null: gone, its operation's row is stale
    return chain != null && chain.stream().anyMatch(inode -> inode.parentId() == ancestorId);
  }
}
