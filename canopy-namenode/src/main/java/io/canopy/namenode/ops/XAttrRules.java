package io.canopy.namenode.ops;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.XAttrNamespace;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.NotSupported;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS's namespace rules for extended attributes (its XAttrPermissionFilter): {@code user} for everyone (the
 * file's permission bits decide), {@code trusted} for the superuser only, {@code security} and {@code system} for
 * nobody through the API, {@code raw} only under {@code /.reserved/raw}, which Canopy does not serve, so never.
 * Only user and trusted attributes are ever stored.
 */
final class XAttrRules {
  /** HDFS's marker that hides a file's content from the superuser; Canopy does not enforce it, so refuses it. */
  static final String UNREADABLE_BY_SUPERUSER = "security.hdfs.unreadable.by.superuser";

  private XAttrRules() {
  }

  /** HDFS's refusal of a namespace the caller may not name, in its words. */
  static void checkNamespace(XAttr xattr, boolean superuser, FsPath path) throws IOException {
    XAttr.NameSpace namespace = xattr.getNameSpace();
    if (namespace == XAttr.NameSpace.USER || namespace == XAttr.NameSpace.TRUSTED && superuser) {
      return;
    }
    String name = XAttrHelper.getPrefixedName(xattr);
    if (name.equals(UNREADABLE_BY_SUPERUSER)) {
      throw NotSupported.oneLine(new UnsupportedActionException("The xattr '" + UNREADABLE_BY_SUPERUSER
          + "' is not supported by Canopy: " + path));
    }
    throw new AccessControlException("User doesn't have permission for xattr: " + name);
  }

  /**
   * The inode whose attribute setXAttr or removeXAttr changes, after HDFS's checks in HDFS's order: traverse, the
   * change access of {@link #checkChangeAccess}, then the path's existence.
   */
  static Inode changedTarget(TransactionContext context, FsPath path, XAttr xattr, PermissionChecker permissions)
      throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    checkChangeAccess(context, resolved, xattr, permissions);
    Inode target = resolved.target();
    if (target == null) {
      throw missing(path);
    }
    return target;
  }

  /**
   * HDFS's checkXAttrChangeAccess, after the traverse check: with checking on, changing a {@code user} attribute
   * needs write on the inode, or, on a sticky directory, its ownership ({@code trusted} ones passed the namespace
   * check, so the caller is the superuser). A missing inode passes: the operation then reports it missing.
   */
  static void checkChangeAccess(TransactionContext context, ResolvedPath resolved, XAttr xattr,
      PermissionChecker permissions) throws AccessControlException, StoreException {
    if (!permissions.settings().enabled() || xattr.getNameSpace() != XAttr.NameSpace.USER) {
      return;
    }
    Inode target = resolved.target();
    if (target != null && target.directory() && ModeBits.permission(target.permission()).getStickyBit()) {
      permissions.checkOwner(context, resolved);
    } else {
      permissions.checkPathAccess(context, resolved, FsAction.WRITE);
    }
  }

  /** What getXAttrs and listXAttrs show the caller: user attributes, and trusted ones to the superuser. */
  static boolean visible(ExtendedAttribute attribute, boolean superuser) {
    return attribute.namespace() == XAttrNamespace.USER
        || attribute.namespace() == XAttrNamespace.TRUSTED && superuser;
  }

  static XAttrNamespace namespaceOf(XAttr xattr) {
    return XAttrNamespace.valueOf(xattr.getNameSpace().name());
  }

  static boolean sameName(ExtendedAttribute attribute, XAttr xattr) {
    return attribute.namespace() == namespaceOf(xattr) && attribute.name().equals(xattr.getName());
  }

  static ExtendedAttribute row(long inodeId, XAttr xattr) {
    return new ExtendedAttribute(inodeId, namespaceOf(xattr), xattr.getName(), xattr.getValue());
  }

  static XAttr xattr(ExtendedAttribute attribute) {
    return new XAttr.Builder().setNameSpace(XAttr.NameSpace.valueOf(attribute.namespace().name()))
        .setName(attribute.name()).setValue(attribute.value()).build();
  }

  /** HDFS's answer for an attribute call on a path that does not exist. */
  static FileNotFoundException missing(FsPath path) {
    return new FileNotFoundException("cannot find " + path);
  }
}
