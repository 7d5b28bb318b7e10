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
 * answers the client's delete call, so its result is what a retry of that call finds.
 */
public final class SubtreeFinishDeleteOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final long rootId;

  public SubtreeFinishDeleteOp(NamespaceServices services, DatanodeRegistry registry, FsPath path, long rootId) {
    this.services = services;
    this.registry = registry;
    this.path = path;
    this.rootId = rootId;
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
      throw new IOException("invariant: the directory " + path + " (inode " + rootId + ") held by a subtree delete "
          + (target == null ? "vanished" : "was replaced by inode " + target.id()));
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
