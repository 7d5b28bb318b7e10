package io.canopy.namenode.ops;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.PermissionSettings;
import io.canopy.namenode.permission.InodeAcls;
import io.canopy.namenode.tx.TransactionContext;
import java.util.List;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The permission (and ACL) a new file or directory gets. The client applied its umask already: the mode it sends is
 * the masked one, which the inode keeps. When the parent has a default ACL, HDFS instead gives the child that ACL,
 * filtered by the <em>unmasked</em> mode the client sends along ({@code FsCreateModes}, with
 * {@code dfs.namenode.posix.acl.inheritance.enabled}), or by the masked mode from clients that do not send it. The
 * parent's ACL rows are read only when its ACL bit is set (once per transaction).
 */
final class NewInodeMode {
  private NewInodeMode() {
  }

  static InodeAcls.Stored of(TransactionContext context, PermissionSettings settings, Inode parent,
      FsPermission requested, boolean directory) throws StoreException {
    InodeAcls.Stored masked = new InodeAcls.Stored(ModeBits.stored(requested.toShort(), false), List.of());
    if (!ModeBits.hasAcl(parent.permission())) {
      return masked;
    }
    List<InodeAclEntry> rows = context.acls(List.of(parent)).get(parent.id());
    FsPermission mode = settings.posixAclInheritance() && requested.getUnmasked() != null ? requested.getUnmasked()
        : requested;
    InodeAcls.Stored inherited = InodeAcls.inherit(InodeAcls.entries(rows), mode, directory);
    return inherited != null ? inherited : masked;
  }

  /** Writes the ACL rows of a child just inserted with {@code stored}'s permission, if it has any. */
  static void writeAcl(TransactionContext context, Inode child, InodeAcls.Stored stored) {
    if (!stored.entries().isEmpty()) {
      context.writeAcl(child, InodeAcls.rows(child.id(), stored.entries()));
    }
  }
}
