package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * delete: removes a file or a directory (recursively when asked) in one transaction; false when the path does
 * not exist or is the root (refused first if it is non-empty and the delete not recursive), as in HDFS. Blocks
 * are scheduled for deletion on their datanodes.
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
    return LockRequest.of(PathLock.writeTargetAndParent(path).withSubtree().withFileData());
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    Inode target = resolved.target();
    if (target == null) {
      return false;
    }
    // HDFS checks emptiness first: a non-recursive delete of a non-empty root is refused, an empty or recursive
    // one answers false
    if (target.directory() && target.childrenCount() > 0 && !recursive) {
      throw new PathIsNotEmptyDirectoryException(path + " is non empty");
    }
    if (path.isRoot()) {
      return false;
    }
    InodeRemover.removeSubtree(context, registry, target);
    Inode parent = resolved.parent();
    context.updateInode(parent.withChildrenCount(parent.childrenCount() - 1)
        .withTimes(services.now(), parent.accessTime()));
    return true;
  }
}
