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
  /** getFileInfo's answer to the superuser for a path under a file; other calls refuse it (HDFS). */
  private final boolean nullUnderAFile;

  public GetFileInfoOp(FsPath path, PermissionChecker permissions) {
    this(path, true, permissions);
  }

  /** With {@code resolveLink} false: getFileLinkInfo. */
  public GetFileInfoOp(FsPath path, boolean resolveLink, PermissionChecker permissions) {
    this(path, resolveLink, permissions, true);
  }

  private GetFileInfoOp(FsPath path, boolean resolveLink, PermissionChecker permissions, boolean nullUnderAFile) {
    this.path = path;
    this.resolveLink = resolveLink;
    this.permissions = permissions;
    this.nullUnderAFile = nullUnderAFile;
  }

  /**
   * The status getPreferredBlockSize reads: a link's own (HDFS does not follow it there), and a path under a file
   * refused for every caller, the superuser included, as HDFS's resolution refuses it for any call but getFileInfo.
   */
  public static GetFileInfoOp forPreferredBlockSize(FsPath path, PermissionChecker permissions) {
    return new GetFileInfoOp(path, false, permissions, false);
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
    if (!nullUnderAFile) {
      return "getPreferredBlockSize";
    }
    return resolveLink ? "getFileInfo" : "getFileLinkInfo";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE));
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    if (nullUnderAFile && PathChecks.absentUnderAFile(resolved, permissions)) {
      return null;
    }
    if (resolveLink) {
      PathChecks.checkTraverse(context, resolved, permissions);
    } else {
      PathChecks.checkTraverseToLink(context, resolved, permissions);
    }
    permissions.checkTraverse(context, resolved);
    if (!resolved.exists()) {
      return null;
    }
    Inode target = resolved.target();
    return FileStatusFactory.status(target, target.isSymlink() ? 0 : resolved.effectiveStoragePolicy(path.depth()));
  }
}
