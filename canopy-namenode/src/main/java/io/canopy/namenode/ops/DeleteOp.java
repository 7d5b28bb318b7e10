package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * delete: removes a file or a directory (recursively when asked) in one transaction; false when the path does
 * not exist or is the root, as in HDFS. Blocks are scheduled for deletion on their datanodes.
 */
public final class DeleteOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath path;
  private final boolean recursive;

  public DeleteOp(NamespaceServices services, DatanodeRegistry registry, FsPath path, boolean recursive) {
    this.services = services;
    this.registry = registry;
    this.path = path;
    this.recursive = recursive;
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
    PathChecks.checkTraverse(resolved);
    Inode target = resolved.target();
    if (target == null || path.isRoot()) {
      return false;
    }
    if (target.directory() && target.childrenCount() > 0 && !recursive) {
      throw new PathIsNotEmptyDirectoryException(path + " is non empty");
    }
    Usage removed = InodeRemover.removeSubtree(context, registry, target);
    QuotaUpdater.release(context, resolved.above(), -removed.namespace(), -removed.storageSpace());
    Inode parent = resolved.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - 1)
        .withTimes(services.now(), parent.accessTime()));
    return true;
  }
}
