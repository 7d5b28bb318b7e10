package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FileStatusFactory;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/** getFileInfo: one inode's status, or null. A single row read at read-committed is already atomic. */
public final class GetFileInfoOp implements Operation<HdfsFileStatus> {
  private final FsPath path;

  public GetFileInfoOp(FsPath path) {
    this.path = path;
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
    if (PathChecks.traversesFile(resolved)) {
      // HDFS answers the superuser "no such file" (null) for a path under a file, and the FileSystem contract
      // (exists(), getFileStatus's FileNotFoundException) expects it; other users get the AccessControlException of
      // PathChecks.checkTraverse. Without permission checking, every caller is answered as the superuser.
      return null;
    }
    return resolved.exists() ? FileStatusFactory.status(resolved.target()) : null;
  }
}
