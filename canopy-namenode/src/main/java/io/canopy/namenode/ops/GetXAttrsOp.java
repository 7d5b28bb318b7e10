package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.XAttrLimits;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.XAttrNotFoundException;

/**
 * getXAttrs and listXAttrs: the extended attributes of a file or directory the caller may see (a link is resolved
 * by the client), all of them or the named ones (then every one must exist, else HDFS's XAttrNotFoundException).
 * Needs read on the inode and execute on its ancestors; a named {@code trusted} attribute is the superuser's.
 * Read-only: the path and the attributes come in one round trip with warm hints.
 */
public final class GetXAttrsOp implements Operation<List<XAttr>> {
  private final FsPath path;
  /** The attributes asked for; empty for all. */
  private final List<XAttr> names;
  private final PermissionChecker permissions;
  private final String name;

  private GetXAttrsOp(String name, FsPath path, List<XAttr> names, XAttrLimits limits, PermissionChecker permissions)
      throws IOException {
    limits.checkEnabled();
    for (XAttr requested : names) {
      limits.checkName(requested);
      XAttrRules.checkNamespace(requested, permissions.isSuperuser(), path);
    }
    this.name = name;
    this.path = path;
    this.names = names;
    this.permissions = permissions;
  }

  /** getXAttrs: the named attributes, or all when {@code names} is null or empty. */
  public static GetXAttrsOp get(FsPath path, List<XAttr> names, XAttrLimits limits, PermissionChecker permissions)
      throws IOException {
    return new GetXAttrsOp("getXAttrs", path, names == null ? List.of() : List.copyOf(names), limits, permissions);
  }

  /** listXAttrs: every attribute the caller may see (HDFS answers them with their values). */
  public static GetXAttrsOp list(FsPath path, XAttrLimits limits, PermissionChecker permissions) throws IOException {
    return new GetXAttrsOp("listXAttrs", path, List.of(), limits, permissions);
  }

  @Override
  public String name() {
    return name;
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
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE)).withXAttrs();
  }

  @Override
  public List<XAttr> execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkPathAccess(context, resolved, FsAction.READ);
    Inode target = resolved.target();
    if (target == null) {
      throw XAttrRules.missing(path);
    }
    List<ExtendedAttribute> visible = new ArrayList<>();
    for (ExtendedAttribute attribute : context.xattrs(target)) {
      if (XAttrRules.visible(attribute, permissions.isSuperuser())) {
        visible.add(attribute);
      }
    }
    List<XAttr> result = new ArrayList<>();
    if (names.isEmpty()) {
      visible.forEach(attribute -> result.add(XAttrRules.xattr(attribute)));
      return result;
    }
    for (XAttr requested : names) {
      ExtendedAttribute found = visible.stream().filter(attribute -> XAttrRules.sameName(attribute, requested))
          .findFirst().orElseThrow(XAttrNotFoundException::new);
      result.add(XAttrRules.xattr(found));
    }
    return result;
  }
}
