package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.blocks.BlockLocator;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * getLocatedFileInfo: a path's status and, for a file, the locations of all its blocks, read in one consistent
 * snapshot (the status and the blocks cannot come from two versions of the file); null when the path does not exist.
 * The caller needs execute on the ancestors, and, when {@code checkRead} (block access tokens on and asked for: the
 * answer's blocks carry READ tokens, design 022), read access to a file, as getBlockLocations asks.
 */
public final class GetLocatedFileInfoOp implements Operation<HdfsFileStatus> {
  private final BlockLocator locator;
  private final FsPath path;
  private final PermissionChecker permissions;
  private final boolean checkRead;

  public GetLocatedFileInfoOp(BlockLocator locator, FsPath path, PermissionChecker permissions, boolean checkRead) {
    this.checkRead = checkRead;
    this.locator = locator;
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
    return "getLocatedFileInfo";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.read(path).withFileData());
  }

  @Override
  public HdfsFileStatus execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    if (PathChecks.absentUnderAFile(resolved, permissions)) {
      return null; // HDFS's getFileInfo with locations: the same answer as getFileInfo
    }
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved); // HDFS: execute on the ancestors, as getFileInfo
    Inode target = resolved.target();
    if (target == null) {
      return null;
    }
    byte policy = resolved.effectiveStoragePolicy(path.depth());
    if (target.directory()) {
      return FileStatusFactory.status(target, policy);
    }
    if (checkRead) {
      permissions.checkPathAccess(context, resolved, FsAction.READ);
    }
    FileData data = context.readFileData(target, LockMode.SHARED);
    List<UcReplica> pipeline = target.underConstruction() ? data.ucReplicas() : List.of();
    return FileStatusFactory.located(target,
        locator.locate(target, data.blocks(), data.allReplicas(), pipeline, 0, Long.MAX_VALUE), policy);
  }
}
