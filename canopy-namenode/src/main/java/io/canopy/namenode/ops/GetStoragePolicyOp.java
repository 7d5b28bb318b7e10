package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
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
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;

/**
 * getStoragePolicy: the effective policy of a file or directory: its own, else the nearest ancestor's, else the
 * default one. Like HDFS it does not resolve a link as the last component, and answers that links have no policy.
 * Needs read on the inode and execute on its ancestors.
 */
public final class GetStoragePolicyOp implements Operation<BlockStoragePolicy> {
  private final FsPath path;
  private final StoragePolicies policies;
  private final PermissionChecker permissions;

  public GetStoragePolicyOp(FsPath path, StoragePolicies policies, PermissionChecker permissions) {
    this.path = path;
    this.policies = policies;
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
    return "getStoragePolicy";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE));
  }

  @Override
  public BlockStoragePolicy execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseToLink(context, resolved, permissions);
    permissions.checkPathAccess(context, resolved, FsAction.READ);
    Inode target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("File/Directory does not exist: " + path);
    }
    if (target.isSymlink()) {
      throw new UnsupportedOperationException("Storage policy are not supported on symlinks");
    }
    return policies.byId(resolved.effectiveStoragePolicy(path.depth()));
  }
}
