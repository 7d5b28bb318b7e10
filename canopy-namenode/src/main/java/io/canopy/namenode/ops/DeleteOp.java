package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LargeSubtreeException;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * delete: removes a file or a directory (recursively when asked) in one transaction, unless the directory is too
 * large for one (design 017: then {@link SubtreeDelete} takes over); false when the path does
 * not exist or is the root (refused first if it is non-empty and the delete not recursive), as in HDFS. Blocks
 * are scheduled for deletion on their datanodes. A link is deleted itself. The caller needs execute on the
 * ancestors, write on the parent (in a sticky parent: to own the parent or the target), and all access to every
 * non-empty directory of the subtree, sticky bits included (HDFS).
 */
public final class DeleteOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final boolean recursive;
  private final PermissionChecker permissions;
  private final long maxInodes;

  /**
   * A delete of at most {@code maxInodes} inodes in this one transaction: a larger subtree throws
   * {@link io.canopy.namenode.tx.LargeSubtreeException}, changing nothing, for the caller to delete it through the
   * subtree protocol ({@link SubtreeDelete}).
   */
  public DeleteOp(NamespaceServices services, DatanodeRegistry registry, FsPath path, boolean recursive,
      PermissionChecker permissions, long maxInodes) {
    this.services = services;
    this.registry = registry;
    this.path = path;
    this.recursive = recursive;
    this.permissions = permissions;
    this.maxInodes = maxInodes;
  }

  @Override
  public String name() {
    return "delete";
  }

  @Override
  public LockRequest locks() {
    // The subtree's first level (or a file's blocks) comes with the locks, in one round trip.
    // Quota rows after the subtree's inodes (the global lock order): given back once the subtree is locked.
    return LockRequest.of(PathLock.writeTargetAndParent(path).withSubtree().withFileData()).withQuotaAfterSubtree();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    // a link is deleted itself, not its target
    PathChecks.checkTraverseToLink(context, resolved, permissions);
    permissions.checkParentAccess(context, resolved, FsAction.WRITE);
    Inode target = resolved.target();
    if (target == null) {
      return false;
    }
    boolean nonEmpty = target.directory() && target.childrenCount() > 0;
    // HDFS checks emptiness first: a non-recursive delete of a non-empty directory (the root included) is refused,
    // an empty or recursive delete of the root answers false. HDFS checks the whole subtree's access before refusing;
    // the directory's own access is checked here without reading below it.
    if (nonEmpty && !recursive) {
      permissions.checkPathAccess(context, resolved, FsAction.ALL);
      throw new PathIsNotEmptyDirectoryException(path + " is non empty");
    }
    if (path.isRoot()) {
      if (nonEmpty) {
        permissions.checkPathAccess(context, resolved, FsAction.ALL);
      }
      return false;
    }
    if (target.childrenCount() >= maxInodes) {
      throw new LargeSubtreeException(path.toString(), maxInodes); // known large without reading it
    }
    List<Inode> subtree = context.subtree(target, LockMode.EXCLUSIVE, maxInodes);
    permissions.checkSubtreeAccess(context, path, subtree, FsAction.ALL, true);
    Usage removed = InodeRemover.removeAll(context, registry, subtree);
    QuotaUpdater.release(context, resolved.above(), -removed.namespace(), -removed.storageSpace());
    Inode parent = resolved.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - 1)
        .withTimes(services.now(), parent.accessTime()));
    return true;
  }
}
