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
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * setXAttr: creates or replaces one extended attribute of a file or directory (a link is resolved by the client),
 * as the CREATE / REPLACE flags allow, within HDFS's limits on size and count. Permissions as in HDFS: the
 * namespace first ({@code trusted} is the superuser's), execute on the ancestors, then for a {@code user} attribute
 * write on the inode (ownership on a sticky directory). The inode is locked exclusively and
 * its attributes are read in the same round trip. At most once: a retried CREATE must not fail on its own success.
 */
public final class SetXAttrOp implements VoidAtMostOnce {
  private final FsPath path;
  private final XAttr xattr;
  private final EnumSet<XAttrSetFlag> flags;
  private final XAttrLimits limits;
  private final PermissionChecker permissions;

  /** HDFS's checks before the namespace is touched: enabled, size, namespace. */
  public SetXAttrOp(FsPath path, XAttr xattr, EnumSet<XAttrSetFlag> flags, XAttrLimits limits,
      PermissionChecker permissions) throws IOException {
    limits.checkEnabled();
    limits.checkName(xattr);
    limits.checkSize(xattr);
    XAttrRules.checkNamespace(xattr, permissions.isSuperuser(), path);
    this.permissions = permissions;
    this.path = path;
    this.xattr = xattr;
    this.flags = flags;
    this.limits = limits;
  }

  @Override
  public String name() {
    return "setXAttr";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.write(path)).withXAttrs();
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    Inode target = XAttrRules.changedTarget(context, path, xattr, permissions);
    List<ExtendedAttribute> existing = context.xattrs(target);
    boolean exists = existing.stream().anyMatch(attribute -> XAttrRules.sameName(attribute, xattr));
    XAttrSetFlag.validate(xattr.getName(), exists, flags);
    // every stored attribute is user-visible (user or trusted), as HDFS counts them
    limits.checkCount(existing.size() + (exists ? 0 : 1));
    context.putXAttr(target, XAttrRules.row(target.id(), xattr));
    return null;
  }
}
