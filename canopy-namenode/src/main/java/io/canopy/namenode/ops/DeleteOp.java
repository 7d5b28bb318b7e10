package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
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
 * delete: removes a file or a directory (recursively when asked) in one transaction; false when the path does
 * not exist or is the root, as in HDFS. Blocks are scheduled for deletion on their datanodes. The caller needs
 * execute on the ancestors, write on the parent (in a sticky parent: to own the parent or the target), and all
 * access to every non-empty directory of the subtree, sticky bits included (HDFS).
 */
public final class DeleteOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final boolean recursive;
  private final PermissionChecker permissions;

  public DeleteOp(NamespaceServices services, DatanodeRegistry registry, FsPath path, boolean recursive,
      PermissionChecker permissions) {
    this.services = services;
    this.registry = registry;
    this.path = path;
    this.recursive = recursive;
    this.permissions = permissions;
  }

  @Override
  public String name() {
    return "delete";
  }

  @Override
  public LockRequest locks() {
    // The subtree's first level (or a file's blocks) comes with the locks, in one round trip.
    return LockRequest.of(PathLock.writeTargetAndParent(path).withSubtree().withFileData());
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    permissions.checkParentAccess(context, resolved, FsAction.WRITE);
    Inode target = resolved.target();
    boolean nonEmpty = target != null && target.directory() && target.childrenCount() > 0;
    if (target == null || path.isRoot()) {
      if (nonEmpty) {
        // HDFS checks the whole namespace before refusing to delete the root; the root's own access decides the
        // usual case, without reading everything only to answer false
        permissions.checkPathAccess(context, resolved, FsAction.ALL);
      }
      return false;
    }
    if (nonEmpty && !recursive) {
      // HDFS checks the whole subtree first; the directory's own access is checked without reading below it
      permissions.checkPathAccess(context, resolved, FsAction.ALL);
      throw new PathIsNotEmptyDirectoryException(path + " is non empty");
    }
    List<Inode> subtree = context.subtree(target, LockMode.EXCLUSIVE);
    permissions.checkSubtreeAccess(context, path, subtree, FsAction.ALL, true);
    InodeRemover.removeAll(context, registry, subtree);
    Inode parent = resolved.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - 1)
        .withTimes(services.now(), parent.accessTime()));
    return true;
  }
}
