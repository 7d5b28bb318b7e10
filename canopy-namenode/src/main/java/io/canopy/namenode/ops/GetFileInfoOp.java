package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
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
 * getFileInfo: one inode's status, or null. A single row read at read-committed is already atomic. getFileLinkInfo
 * is the same call that does not resolve a link as the last component: it answers the link's own status. The caller
 * needs execute on the ancestors only (HDFS).
 */
public final class GetFileInfoOp implements Operation<HdfsFileStatus> {
  private final FsPath path;
  private final boolean resolveLink;
  private final PermissionChecker permissions;

  public GetFileInfoOp(FsPath path, PermissionChecker permissions) {
    this(path, true, permissions);
  }

  /** With {@code resolveLink} false: getFileLinkInfo. */
  public GetFileInfoOp(FsPath path, boolean resolveLink, PermissionChecker permissions) {
    this.path = path;
    this.resolveLink = resolveLink;
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
    return resolveLink ? "getFileInfo" : "getFileLinkInfo";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED));
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    if (PathChecks.traversesFile(resolved) && (permissions.isSuperuser() || !permissions.settings().enabled())) {
      // HDFS answers the superuser "no such file" (null) for a path under a file, and the FileSystem contract
      // (exists(), getFileStatus's FileNotFoundException) expects it; other users get the AccessControlException of
      // PathChecks.checkTraverse.
      return null;
    }
    if (resolveLink) {
      PathChecks.checkTraverse(resolved);
    } else {
      PathChecks.checkTraverseToLink(resolved);
    }
    permissions.checkTraverse(context, resolved);
    if (!resolved.exists()) {
      return null;
    }
    Inode target = resolved.target();
    return FileStatusFactory.status(target, target.isSymlink() ? 0 : resolved.effectiveStoragePolicy(path.depth()));
  }
}
