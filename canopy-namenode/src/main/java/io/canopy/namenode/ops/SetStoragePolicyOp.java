package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.StoragePolicies;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;

/**
 * setStoragePolicy and unsetStoragePolicy (policy 0): records the policy on a file or directory (a link is resolved
 * by the client); files and directories below a directory inherit it unless they have their own. A policy fixed at
 * creation (LAZY_PERSIST) can neither be set on nor removed from an existing file, as in HDFS. Needs write on the
 * inode and execute on its ancestors (the superuser-only setting is checked by the caller before the call runs).
 */
public final class SetStoragePolicyOp implements Operation<Void> {
  private final FsPath path;
  private final byte policyId;
  private final StoragePolicies policies;
  private final PermissionChecker permissions;

  public SetStoragePolicyOp(FsPath path, byte policyId, StoragePolicies policies, PermissionChecker permissions) {
    this.path = path;
    this.policyId = policyId;
    this.policies = policies;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return policyId == 0 ? "unsetStoragePolicy" : "setStoragePolicy";
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
      throw new FileNotFoundException("File/Directory does not exist: " + path);
    }
    if (!target.directory()) {
      if (policyId != 0) {
        BlockStoragePolicy policy = policies.byId(policyId);
        if (policy.isCopyOnCreateFile()) {
          throw new HadoopIllegalArgumentException("Policy " + policy + " cannot be set after file creation.");
        }
      }
      if (target.storagePolicy() != 0 && policies.byId(target.storagePolicy()).isCopyOnCreateFile()) {
        throw new HadoopIllegalArgumentException("Existing policy " + policies.byId(target.storagePolicy()).getName()
            + " cannot be changed after file creation.");
      }
    }
    if (target.storagePolicy() != policyId) {
      context.updateInode(target.withStoragePolicy(policyId));
    }
    return null;
  }
}
