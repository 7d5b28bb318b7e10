package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * checkAccess (FileSystem.access): succeeds when the caller has {@code mode} on the path, else HDFS's
 * AccessControlException; FileNotFoundException for a missing path.
 */
public final class CheckAccessOp implements Operation<Void> {
  private final FsPath path;
  private final FsAction mode;
  private final PermissionChecker permissions;

  public CheckAccessOp(FsPath path, FsAction mode, PermissionChecker permissions) {
    this.path = path;
    this.mode = mode;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public String name() {
    return "checkAccess";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    permissions.checkTraverse(context, resolved);
    if (resolved.target() == null) {
      throw new FileNotFoundException("Path not found: " + path);
    }
    permissions.checkPathAccess(context, resolved, mode);
    return null;
  }
}
