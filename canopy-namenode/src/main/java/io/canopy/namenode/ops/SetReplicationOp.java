package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.replication.CorruptReplicas;
import io.canopy.namenode.replication.ReplicationQueue;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.FileData;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * setReplication: records a file's new replication factor and queues its complete blocks whose replica count now
 * differs from it, so the leader copies or deletes replicas (HDFS's {@code hdfs dfs -setrep}). False for a missing
 * path or a directory, as in HDFS. Needs write on the inode.
 */
public final class SetReplicationOp implements Operation<Boolean> {
  private final NamespaceServices services;
  private final FsPath path;
  private final short replication;
  private final PermissionChecker permissions;

  public SetReplicationOp(NamespaceServices services, FsPath path, short replication,
      PermissionChecker permissions) {
    this.services = services;
    this.path = path;
    this.replication = replication;
    this.permissions = permissions;
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
    return LockRequest.of(PathLock.write(path).withFileData()).withQuota();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    services.limits().checkReplication(path, replication);
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    Inode target = resolved.target();
    if (target == null || target.directory()) {
      return false;
    }
    if (target.replication() == replication) {
      return true;
    }
    FileTables transaction = context.fileData(target, LockMode.EXCLUSIVE);
    FileData data = context.readFileData(target, LockMode.EXCLUSIVE);
    Inode replicated = target.withReplication(replication);
    // storage space follows the replication; HDFS checks the quotas above only when it grows
    QuotaUpdater.charge(context, resolved.above(), 0, StorageSpace.ofFile(replicated, data.blocks())
        - StorageSpace.ofFile(target, data.blocks()));
    context.updateInode(replicated);
    Map<Long, Set<String>> replicas = ReplicationQueue.storagesByBlock(data.replicas());
    Map<Long, Set<String>> corrupt = ReplicationQueue.storagesByBlock(data.corruptReplicas());
    long now = services.now();
    for (Block block : data.blocks()) {
      if (block.state() != BlockState.COMPLETE) {
        continue;
      }
      int recorded = replicas.getOrDefault(block.blockId(), Set.of()).size();
      if (corrupt.containsKey(block.blockId())) {
        // its corrupt replicas go once it has the new replication in good ones (at once, when lowered to that)
        CorruptReplicas.queue(transaction, target.id(), block.blockId(), recorded, replication, now);
      } else if (recorded == replication) {
        ReplicationQueue.dequeue(transaction, target.id(), block.blockId()); // queued for the old factor, if at all
      } else {
        ReplicationQueue.queue(transaction, target.id(), block.blockId(), recorded, replication, now);
      }
    }
    return true;
  }
}
