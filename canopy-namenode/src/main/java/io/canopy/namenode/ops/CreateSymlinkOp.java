package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.fs.StorableText;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.VoidAtMostOnce;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;

/**
 * createSymlink: a new link inode holding its target verbatim (any string but an empty or reserved one; it need not
 * exist, may be relative or name another file system), under exclusive locks on the parent (or the deepest existing
 * ancestor, when parents are created) and on the link's name. HDFS's checks and messages, in its order: execute on
 * the ancestors, the parent and name checks, then write on the deepest existing ancestor (the target is neither
 * resolved nor checked). The link belongs to the caller, with the parent's group and no inherited ACL.
 */
public final class CreateSymlinkOp implements VoidAtMostOnce {
  /** HDFS's prefix of reserved paths: never a link target. */
  private static final String RESERVED = "/.reserved";
  /** HDFS gives every link these permission bits; links are never checked against them. */
  private static final short LINK_PERMISSION = (short) 0777;

  /**
   * What the client asked for, validated before any database work. {@code directoryPermission} is the RPC's
   * {@code dirPerm}, which HDFS does not use for the mode of the parents it makes (they take the deepest existing
   * directory's mode plus u+wx, as for create); it is kept as the client sent it.
   */
  public record Request(String target, FsPath link, FsPermission directoryPermission, boolean createParent) {
    /**
     * HDFS's checks on the raw arguments: the link's length and depth, then whether symlinks are enabled, then the
     * link's name and the target (which must also be text the database can store).
     */
    public static Request of(String target, String link, FsPermission directoryPermission, boolean createParent,
        boolean symlinksEnabled) throws IOException {
      if (link.length() > HdfsServerConstants.MAX_PATH_LENGTH
          || new Path(link).depth() > HdfsServerConstants.MAX_PATH_DEPTH) {
        throw new IOException("Symlink path exceeds " + HdfsServerConstants.MAX_PATH_LENGTH + " character limit");
      }
      if (!symlinksEnabled) {
        throw new UnsupportedOperationException("Symlinks not supported");
      }
      FsPath path;
      try {
        path = FsPath.parse(link);
      } catch (InvalidPathException invalid) {
        throw new InvalidPathException("Invalid link name: " + StorableText.shown(link));
      }
      if (target.isEmpty() || target.equals(RESERVED) || target.startsWith(RESERVED + "/")) {
        throw new InvalidPathException("Invalid target name: " + target);
      }
      String unstorable = StorableText.problem(target); // HDFS keeps any target; the database cannot
      if (unstorable != null) {
        throw new InvalidPathException("Invalid target name: " + StorableText.shown(target) + " " + unstorable);
      }
      // HDFS refuses a link name with a trailing slash as it refuses an existing one (isValidToCreate)
      if (path.isRoot() || link.endsWith("/")) {
        throw alreadyExistsOrInvalid(link);
      }
      return new Request(target, path, directoryPermission, createParent);
    }
  }

  private final NamespaceServices services;
  private final Request request;
  private final PermissionChecker permissions;

  public CreateSymlinkOp(NamespaceServices services, Request request, PermissionChecker permissions) {
    this.services = services;
    this.request = request;
    this.permissions = permissions;
  }

  @Override
  public String name() {
    return "createSymlink";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.writeTargetAndParent(request.link));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    FsPath path = request.link;
    ResolvedPath resolved = context.path(path);
    // links before the link's name are resolved by the client
    PathChecks.checkTraverseToLink(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode parent = resolved.parent();
    if (!request.createParent && parent == null && path.depth() > 1) {
      throw new FileNotFoundException("Parent directory doesn't exist: " + path.parent());
    }
    if (resolved.exists()) {
      throw alreadyExistsOrInvalid(path.toString());
    }
    permissions.checkAncestorAccess(context, resolved, FsAction.WRITE);
    boolean madeParents = parent == null;
    if (madeParents) {
      // HDFS's createAncestorDirectories, as for create: the deepest existing directory's mode plus owner write and
      // execute (the client's dirPerm is not used for the mode)
      parent = DirectoryMaker.createMissing(context, services, resolved, path.depth(),
          DirectoryMaker.withImplicitOwnerWriteExecute(
              ModeBits.permission(resolved.deepestExisting().permission())), permissions.user());
    }
    // a link is one inode of the namespace quotas above it, as in HDFS
    DirectoryMaker.admit(context, services, resolved, parent, path.parent(), path.name(), madeParents);
    long now = services.now();
    Inode link = Inode.builder()
        .id(services.ids().next(IdKind.INODE))
        .partitionId(InodePartitioning.partitionOf(parent, path.name()))
        .parentId(parent.id())
        .name(path.name())
        .permission(LINK_PERMISSION)
        .owner(permissions.user())
        .group(parent.group())
        .modificationTime(now)
        .accessTime(now)
        .symlinkTarget(request.target)
        .build();
    DirectoryMaker.attach(context, parent, link);
    return null;
  }

  private static IOException alreadyExistsOrInvalid(String link) {
    return new IOException("failed to create link " + link
        + " either because the filename is invalid or the file exists");
  }
}
