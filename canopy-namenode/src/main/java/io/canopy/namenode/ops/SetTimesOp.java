package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
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

/** setTimes: sets modification and/or access time; -1 leaves a time unchanged. Needs write on the inode (HDFS). */
public final class SetTimesOp implements Operation<Void> {
  private final FsPath path;
  private final long modificationTime;
  private final long accessTime;
  private final PermissionChecker permissions;

  public SetTimesOp(FsPath path, long modificationTime, long accessTime, PermissionChecker permissions) {
    this.path = path;
    this.modificationTime = modificationTime;
    this.accessTime = accessTime;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setTimes";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    Inode target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("File/Directory " + path + " does not exist.");
    }
    context.updateInode(target.withTimes(modificationTime == -1 ? target.modificationTime() : modificationTime,
        accessTime == -1 ? target.accessTime() : accessTime));
    return null;
  }
}
