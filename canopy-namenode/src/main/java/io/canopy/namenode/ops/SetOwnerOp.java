package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * setOwner: changes an inode's owner and/or group (null keeps the current one). As in HDFS, even with permission
 * checking off: only the owner or the superuser may, only the superuser gives an inode to another user, and an
 * owner may only choose one of its own groups.
 */
public final class SetOwnerOp implements Operation<Void> {
  private final FsPath path;
  private final String owner;
  private final String group;
  private final PermissionChecker permissions;

  public SetOwnerOp(FsPath path, String owner, String group, PermissionChecker permissions) {
    if (owner == null && group == null) {
      throw new IllegalArgumentException("setOwner of " + path + ": owner and group cannot both be null");
    }
    this.path = path;
    this.owner = owner;
    this.group = group;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setOwner";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = PathChecks.requireTarget(resolved);
    permissions.checkOwner(context, resolved);
    permissions.checkOwnershipChange(owner, group);
    context.updateInode(target.withOwnership(owner == null ? target.owner() : owner,
        group == null ? target.group() : group));
    return null;
  }
}
