package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * isFileClosed: whether a file has no writer (HDFS's FSNamesystem.isFileClosed): one inode row, read at read-committed.
 * A missing path or a directory is HDFS's FileNotFoundException.
 */
public final class IsFileClosedOp implements Operation<Boolean> {
  private final FsPath path;

  public IsFileClosedOp(FsPath path) {
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
    return "isFileClosed";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED));
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    return !PathChecks.requireFile(context.path(path)).underConstruction();
  }
}
