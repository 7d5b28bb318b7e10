package io.canopy.namenode.ops;

import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.XAttrLimits;
import io.canopy.namenode.tx.AtMostOnce;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.ResultCodecs;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * setXAttr: creates or replaces one extended attribute of a file or directory (a link is resolved by the client),
 * as the CREATE / REPLACE flags allow, within HDFS's limits on size and count. The inode is locked exclusively and
 * its attributes are read in the same round trip. At most once: a retried CREATE must not fail on its own success.
 */
public final class SetXAttrOp implements AtMostOnce<Void> {
  private final FsPath path;
  private final XAttr xattr;
  private final EnumSet<XAttrSetFlag> flags;
  private final XAttrLimits limits;

  /** HDFS's checks before the namespace is touched: enabled, size, namespace. */
  public SetXAttrOp(FsPath path, XAttr xattr, EnumSet<XAttrSetFlag> flags, boolean superuser, XAttrLimits limits)
      throws IOException {
    limits.checkEnabled();
    limits.checkSize(xattr);
    XAttrRules.checkNamespace(xattr, superuser, path);
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
    Inode target = resolved.target();
    if (target == null) {
      throw XAttrRules.missing(path);
    }
    List<ExtendedAttribute> existing = context.xattrs(target);
    boolean exists = existing.stream().anyMatch(attribute -> XAttrRules.sameName(attribute, xattr));
    XAttrSetFlag.validate(xattr.getName(), exists, flags);
    // every stored attribute is user-visible (user or trusted), as HDFS counts them
    limits.checkCount(existing.size() + (exists ? 0 : 1));
    context.putXAttr(target, XAttrRules.row(target.id(), xattr));
    return null;
  }
}
