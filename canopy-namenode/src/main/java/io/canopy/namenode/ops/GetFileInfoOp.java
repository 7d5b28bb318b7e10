package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * getFileInfo: one inode's status, or null. A single row read at read-committed is already atomic. The caller needs
 * execute on the ancestors only (HDFS).
 */
public final class GetFileInfoOp implements Operation<HdfsFileStatus> {
  private final FsPath path;
  private final PermissionChecker permissions;

  public GetFileInfoOp(FsPath path, PermissionChecker permissions) {
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
    return "getFileInfo";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED));
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    permissions.checkTraverse(context, resolved);
    return resolved.exists() ? FileStatusFactory.status(resolved.target()) : null;
  }
}
