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
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;

/**
 * setAcl: replaces the access ACL, the default ACL or both, whichever scopes the spec names (the other is kept);
 * an empty spec removes the whole ACL, as in HDFS. Owner or superuser only ({@link AclUpdate}).
 */
public final class SetAclOp implements Operation<Void> {
  private final FsPath path;
  private final List<AclEntry> spec;
  private final PermissionChecker permissions;

  public SetAclOp(FsPath path, List<AclEntry> spec, PermissionChecker permissions) {
    this.path = path;
    this.spec = List.copyOf(spec);
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setAcl";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    AclUpdate.requireEnabled(permissions);
    Inode target = AclUpdate.ownedTarget(context, permissions, path);
    if (spec.isEmpty()) {
      RemoveAclOp.removeAcl(context, target);
    } else {
      AclUpdate.apply(context, path, target, existing -> AclEditor.replace(existing, spec));
    }
    return null;
  }
}
