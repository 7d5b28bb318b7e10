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
 * AccessControlException; FileNotFoundException for a missing path. The same check guards the calls whose answer is
 * a constant in Canopy but would still tell whether a path exists, as HDFS checks them: getErasureCodingPolicy (every
 * file is replicated) and getEnclosingRoot (no encryption zones or mount points; a missing path is no error there).
 */
public final class CheckAccessOp implements Operation<Void> {
  private final String name;
  private final FsPath path;
  private final FsAction mode;
  private final boolean requireExisting;
  private final PermissionChecker permissions;

  public CheckAccessOp(FsPath path, FsAction mode, PermissionChecker permissions) {
    this("checkAccess", path, mode, true, permissions);
  }

  private CheckAccessOp(String name, FsPath path, FsAction mode, boolean requireExisting,
      PermissionChecker permissions) {
    this.name = name;
    this.path = path;
    this.mode = mode;
    this.requireExisting = requireExisting;
    this.permissions = permissions;
  }

  /** HDFS's check for {@code call} (its name, for metrics): execute on the ancestors, read on the path if it exists. */
  public static CheckAccessOp readFor(String call, FsPath path, boolean requireExisting,
      PermissionChecker permissions) {
    return new CheckAccessOp(call, path, FsAction.READ, requireExisting, permissions);
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
    return name;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    if (resolved.target() == null && requireExisting) {
      throw new FileNotFoundException("Path not found: " + path);
    }
    permissions.checkPathAccess(context, resolved, mode);
    return null;
  }
}
