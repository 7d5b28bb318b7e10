package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.permission.InodeAcls;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;

/**
 * removeAcl: removes every ACL entry, access and default; the group bits, which held the mask, get the group
 * entry's permission back (HDFS). Owner or superuser only ({@link AclUpdate}).
 */
public final class RemoveAclOp implements Operation<Void> {
  private final FsPath path;
  private final PermissionChecker permissions;

  public RemoveAclOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "removeAcl";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    AclUpdate.requireEnabled(permissions);
    removeAcl(context, AclUpdate.ownedTarget(context, permissions, path));
    return null;
  }

  /** Removes the ACL of an exclusively locked inode; nothing to do without one. */
  static void removeAcl(TransactionContext context, Inode target) throws IOException {
    if (!ModeBits.hasAcl(target.permission())) {
      return;
    }
    short mode = InodeAcls.withoutAcl(target.permission(), AclUpdate.stored(context, target));
    AclUpdate.write(context, target, new InodeAcls.Stored(ModeBits.stored(mode, false), List.of()));
  }
}
