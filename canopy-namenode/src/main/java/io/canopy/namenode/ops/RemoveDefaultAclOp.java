package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.AclEditor;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/** removeDefaultAcl: removes the default ACL, keeping the access ACL. Owner or superuser only ({@link AclUpdate}). */
public final class RemoveDefaultAclOp implements Operation<Void> {
  private final FsPath path;
  private final PermissionChecker permissions;

  public RemoveDefaultAclOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "removeDefaultAcl";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    AclUpdate.requireEnabled(permissions);
    Inode target = AclUpdate.ownedTarget(context, permissions, path);
    AclUpdate.apply(context, path, target, AclEditor::removeDefault);
    return null;
  }
}
