package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsPermission;

/** setPermission: changes one inode's mode bits under its exclusive lock. */
public final class SetPermissionOp implements Operation<Void> {
  private final FsPath path;
  private final FsPermission permission;

  public SetPermissionOp(FsPath path, FsPermission permission) {
    this.path = path;
    this.permission = permission;
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
    Inode target = PathChecks.requireTarget(context.path(path));
    context.updateInode(target.withPermission(permission.toShort()));
    return null;
  }
}
