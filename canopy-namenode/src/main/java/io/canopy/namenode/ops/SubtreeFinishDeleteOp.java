package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/**
 * The subtree protocol's last transaction for a delete (design 017): removes the emptied, flagged directory from its
 * parent, gives its usage back above, and ends the operation (its {@code subtree_operations} row goes with it). It
 * answers the client's delete call, so its result is what a retry of that call finds. {@code path} is where the
 * directory is now ({@link SubtreePathOp}); if it moved again meanwhile, {@link Moved} says so and nothing changed.
 */
public final class SubtreeFinishDeleteOp implements BooleanAtMostOnce {
  /** The held directory is no longer at the path this transaction was given. */
  static final class Moved extends IOException {
    private static final long serialVersionUID = 1L;

    Moved(String message) {
      super(message);
    }
  }

  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final long rootId;
  private final long namenodeId;

  public SubtreeFinishDeleteOp(NamespaceServices services, DatanodeRegistry registry, FsPath path, long rootId,
      long namenodeId) {
    this.services = services;
    this.registry = registry;
    this.path = path;
    this.rootId = rootId;
    this.namenodeId = namenodeId;
  }

  @Override
  public String name() {
    return "delete";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.writeTargetAndParent(path)).withQuota().insideSubtreeOperation(rootId);
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    Inode target = resolved.target();
    if (target == null || target.id() != rootId) {
      throw new Moved("the directory (inode " + rootId + ") held by a subtree delete is no longer at " + path);
    }
    SubtreeSteps.checkMembership(context, namenodeId, "delete " + path);
    if (target.subtreeLockOwner() != namenodeId) {
      // this namenode was taken for dead (evicted) and another took the operation over: it finishes it
      throw new IOException("delete " + path + ": the subtree operation of namenode " + namenodeId + " was taken "
          + "over by namenode " + target.subtreeLockOwner() + "; retry the delete");
    }
    if (target.childrenCount() != 0) {
      throw new IOException("invariant: " + path + " still has " + target.childrenCount() + " children after its "
          + "subtree delete");
    }
    Usage removed = InodeRemover.removeAll(context, registry, List.of(target));
    QuotaUpdater.release(context, resolved.above(), -removed.namespace(), -removed.storageSpace());
    Inode parent = resolved.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - 1)
        .withTimes(services.now(), parent.accessTime()));
    return true;
  }
}
