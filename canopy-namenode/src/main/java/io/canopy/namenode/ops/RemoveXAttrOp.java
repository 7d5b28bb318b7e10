package io.canopy.namenode.ops;

import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.XAttrLimits;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.VoidAtMostOnce;
import java.io.IOException;
import org.apache.hadoop.fs.XAttr;

/**
 * removeXAttr: removes one extended attribute of a file or directory (a link is resolved by the client); HDFS's
 * error when it has none of that name. Permissions as setXAttr's ({@link SetXAttrOp}). At most once: a retry must not fail on its own success.
 */
public final class RemoveXAttrOp implements VoidAtMostOnce {
  private final FsPath path;
  private final XAttr xattr;
  private final PermissionChecker permissions;

  public RemoveXAttrOp(FsPath path, XAttr xattr, XAttrLimits limits, PermissionChecker permissions)
      throws IOException {
    limits.checkEnabled();
    limits.checkName(xattr);
    XAttrRules.checkNamespace(xattr, permissions.isSuperuser(), path);
    this.permissions = permissions;
    this.path = path;
    this.xattr = xattr;
  }

  @Override
  public String name() {
    return "removeXAttr";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path)).withXAttrs();
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Inode target = XAttrRules.changedTarget(context, path, xattr, permissions);
    for (ExtendedAttribute attribute : context.xattrs(target)) {
      if (XAttrRules.sameName(attribute, xattr)) {
        context.removeXAttr(target, attribute.key());
        return null;
      }
    }
    throw new IOException("No matching attributes found for remove operation");
  }
}
