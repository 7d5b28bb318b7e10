package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * setReplication: records a file's new replication factor; false for a missing path or a directory, as in HDFS.
 * (Re-replication towards the new factor is the leader's housekeeping.)
 */
public final class SetReplicationOp implements Operation<Boolean> {
  private final NamespaceServices services;
  private final FsPath path;
  private final short replication;

  public SetReplicationOp(NamespaceServices services, FsPath path, short replication) {
    this.services = services;
    this.path = path;
    this.replication = replication;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setReplication";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path));
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    services.limits().checkReplication(path, replication);
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    Inode target = resolved.target();
    if (target == null || target.directory()) {
      return false;
    }
    context.updateInode(target.withReplication(replication));
    return true;
  }
}
