package io.canopy.namenode.ops;

import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.XAttrLimits;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.AtMostOnce;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.ResultCodecs;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.XAttr;

/**
 * removeXAttr: removes one extended attribute of a file or directory (a link is resolved by the client); HDFS's
 * error when it has none of that name. Permissions as setXAttr's ({@link SetXAttrOp}). At most once: a retry must not fail on its own success.
 */
public final class RemoveXAttrOp implements AtMostOnce<Void> {
  private final FsPath path;
  private final XAttr xattr;
  private final PermissionChecker permissions;

  public RemoveXAttrOp(FsPath path, XAttr xattr, XAttrLimits limits, PermissionChecker permissions)
      throws IOException {
    limits.checkEnabled();
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
  public byte[] encodeResult(Void result) {
    return ResultCodecs.encodeVoid();
  }

  @Override
  public Void decodeResult(byte[] encoded) {
    return null;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path)).withXAttrs();
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    permissions.checkTraverse(context, resolved);
    XAttrRules.checkChangeAccess(context, resolved, xattr, permissions);
    Inode target = resolved.target();
    if (target == null) {
      throw XAttrRules.missing(path);
    }
    for (ExtendedAttribute attribute : context.xattrs(target)) {
      if (XAttrRules.sameName(attribute, xattr)) {
        context.removeXAttr(target, attribute.key());
        return null;
      }
    }
    throw new IOException("No matching attributes found for remove operation");
  }
}
