package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * isFileClosed: whether a file has no writer (HDFS's FSNamesystem.isFileClosed): one inode row, read at read-committed.
 * A missing path or a directory is HDFS's FileNotFoundException. Needs execute on the ancestors (HDFS's traverse).
 */
public final class IsFileClosedOp implements Operation<Boolean> {
  private final FsPath path;
  private final PermissionChecker permissions;

  public IsFileClosedOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
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
    return "isFileClosed";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE));
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    return !PathChecks.requireFile(resolved).underConstruction();
  }
}
