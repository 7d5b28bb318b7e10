package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * setPermission: changes one inode's mode bits under its exclusive lock. Only its owner or the superuser may, even
 * with permission checking off (HDFS). An inode with an ACL keeps it: its group bits are the ACL's mask.
 */
public final class SetPermissionOp implements Operation<Void> {
  private final FsPath path;
  private final FsPermission permission;
  private final PermissionChecker permissions;

  public SetPermissionOp(FsPath path, FsPermission permission, PermissionChecker permissions) {
    this.path = path;
    this.permission = permission;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setPermission";
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
    context.updateInode(target.withPermission(ModeBits.stored(permission.toShort(),
        ModeBits.hasAcl(target.permission()))));
    return null;
  }
}
