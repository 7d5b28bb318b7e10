package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.permission.InodeAcls;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * What the calls that change an ACL share (HDFS's FSDirAclOp): ACLs must be enabled; the caller needs execute on
 * the ancestors and must own the inode (or be the superuser), even with permission checking off; the inode's full
 * ACL is read (its rows only when its ACL bit is set), changed, and split again into its permission bits and rows.
 */
final class AclUpdate {
  /** One change of a full ACL; HDFS's AclException when the result is not a valid ACL. */
  interface Change {
    List<AclEntry> apply(List<AclEntry> existing) throws AclException;
  }

  private AclUpdate() {
  }

  /** HDFS's refusal of every ACL call when {@code dfs.namenode.acls.enabled} is false. */
  static void requireEnabled(PermissionChecker permissions) throws AclException {
    if (!permissions.settings().aclsEnabled()) {
      throw new AclException("The ACL operation has been rejected.  Support for ACLs has been disabled by setting "
          + "dfs.namenode.acls.enabled to false.");
    }
  }

  /** The path's inode after the ownership checks (the path must be locked exclusively). */
  static Inode ownedTarget(TransactionContext context, PermissionChecker permissions, FsPath path)
      throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("Directory/File does not exist " + path);
    }
    permissions.checkOwner(context, resolved);
    return target;
  }

  /** The stored rows of {@code inode} as entries (none without the ACL bit). */
  static List<AclEntry> stored(TransactionContext context, Inode inode) throws IOException {
    List<InodeAclEntry> rows = context.acls(List.of(inode)).get(inode.id());
    return rows == null ? List.of() : InodeAcls.entries(rows);
  }

  /** Applies {@code change} to the inode's full ACL and writes the result; AclExceptions name the path. */
  static void apply(TransactionContext context, FsPath path, Inode target, Change change) throws IOException {
    List<AclEntry> existing = InodeAcls.logical(target.permission(), stored(context, target));
    try {
      InodeAcls.Stored result = InodeAcls.store(target.permission(), target.directory(), path.toString(),
          change.apply(existing));
      write(context, target, result);
    } catch (AclException e) {
      throw new AclException(e.getMessage() + " Path: " + path, e); // as HDFS words it
    }
  }

  /** Writes an inode's new permission and rows (rows only where the inode had or gets an ACL). */
  static void write(TransactionContext context, Inode target, InodeAcls.Stored result) {
    if (result.permission() != target.permission()) {
      context.updateInode(target.withPermission(result.permission()));
    }
    if (ModeBits.hasAcl(target.permission()) || !result.entries().isEmpty()) {
      context.writeAcl(target, InodeAcls.rows(target.id(), result.entries()));
    }
  }
}
