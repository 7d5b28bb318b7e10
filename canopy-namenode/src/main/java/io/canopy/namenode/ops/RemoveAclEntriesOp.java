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
 * removeAclEntries: removes the entries whose scope, type and name the spec names (their permissions ignored); the
 * mask is recalculated. Owner or superuser only ({@link AclUpdate}).
 */
public final class RemoveAclEntriesOp implements Operation<Void> {
  private final FsPath path;
  private final List<AclEntry> spec;
  private final PermissionChecker permissions;

  public RemoveAclEntriesOp(FsPath path, List<AclEntry> spec, PermissionChecker permissions) {
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
    return "removeAclEntries";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    AclUpdate.requireEnabled(permissions);
    Inode target = AclUpdate.ownedTarget(context, permissions, path);
    AclUpdate.apply(context, path, target, existing -> AclEditor.remove(existing, spec));
    return null;
  }
}
