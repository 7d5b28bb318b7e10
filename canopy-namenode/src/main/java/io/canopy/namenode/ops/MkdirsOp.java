package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * mkdirs: creates a directory (and, with createParent, its missing ancestors) under an exclusive parent lock. The
 * caller needs execute on the ancestors and, to create, write on the deepest existing one (HDFS).
 */
public final class MkdirsOp implements Operation<Boolean> {
  private final NamespaceServices services;
  private final FsPath path;
  private final FsPermission permission;
  private final boolean createParent;
  /** The caller, who owns what is created. */
  private final PermissionChecker permissions;

  public MkdirsOp(NamespaceServices services, FsPath path, FsPermission permission, boolean createParent,
      PermissionChecker permissions) {
    this.services = services;
    this.path = path;
    this.permission = permission;
    this.createParent = createParent;
    this.permissions = permissions;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "mkdirs";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.writeTargetAndParent(path)).withQuota();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseForCreate(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = resolved.target();
    if (target != null) {
      if (!target.directory()) {
        throw new FileAlreadyExistsException("Path is not a directory: " + path);
      }
      return true;
    }
    permissions.checkAncestorAccess(context, resolved, FsAction.WRITE);
    if (resolved.parent() == null && !createParent) {
      throw new FileNotFoundException("Parent directory doesn't exist: " + path.parent());
    }
    Inode parent = DirectoryMaker.createMissing(context, services, resolved, path.depth(),
        DirectoryMaker.withImplicitOwnerWriteExecute(permission), permissions.user());
    DirectoryMaker.admit(context, services, resolved, parent, path.parent(), path.name(), resolved.parent() == null);
    DirectoryMaker.addDirectory(context, services, parent, path.name(), path.depth(), permission, permissions.user());
    return true;
  }
}
