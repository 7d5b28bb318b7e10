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
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * getAclStatus: the owner, group, permission (group bits: the mask when there is an access ACL) and the ACL entries
 * the permission bits do not hold, as HDFS returns them; execute on the ancestors is all it needs. Not a read-only
 * transaction: the shared lock on the inode, held until commit, keeps its mode and its ACL rows (read in a second
 * statement when it has any) from changing in between.
 */
public final class GetAclStatusOp implements Operation<AclStatus> {
  private final FsPath path;
  private final PermissionChecker permissions;

  public GetAclStatusOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "getAclStatus";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.read(path));
  }

  @Override
  public AclStatus execute(TransactionContext context) throws IOException {
    AclUpdate.requireEnabled(permissions);
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("cannot find " + path);
    }
    FsPermission mode = ModeBits.permission(target.permission());
    return new AclStatus.Builder().owner(target.owner()).group(target.group()).stickyBit(mode.getStickyBit())
        .setPermission(mode).addEntries(AclUpdate.stored(context, target)).build();
  }
}
