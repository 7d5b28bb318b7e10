package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.VoidAtMostOnce;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * rename2 (POSIX rename with options): moves src to exactly dst, replacing an existing dst only with OVERWRITE
 * (files replace files, empty directories replace... directories). Errors are HDFS's exceptions and messages.
 * Locks: source, destination and both parents exclusively, taken in the global path order. Permissions first, as in
 * HDFS: execute on both paths' ancestors, write on the source's parent (its sticky bit too) and on the
 * destination's deepest existing ancestor.
 */
public final class Rename2Op implements VoidAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath source;
  private final FsPath destination;
  private final boolean overwrite;
  private final PermissionChecker permissions;
  private SubtreeUsageSource counting = SubtreeUsageSource.UNBOUNDED;

  public Rename2Op(NamespaceServices services, DatanodeRegistry registry, FsPath source, FsPath destination,
      boolean overwrite, PermissionChecker permissions) {
    this.services = services;
    this.registry = registry;
    this.source = source;
    this.destination = destination;
    this.overwrite = overwrite;
    this.permissions = permissions;
  }


  /**
   * How the subtree moved between quota directories is counted (design 017): by default in this transaction,
   * whatever its size.
   */
  public Rename2Op countingSubtree(SubtreeUsageSource counting) {
    this.counting = counting;
    return this;
  }

  @Override
  public String name() {
    return "rename2";
  }

  @Override
  public LockRequest locks() {
    return counting.guard(LockRequest.of(PathLock.writeTargetAndParent(source),
        RenameSupport.destinationLock(source, destination)).withQuotaAfterSubtree());
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    ResolvedPath src = context.path(source);
    ResolvedPath dst = context.path(destination);
    // links are moved or replaced themselves, never followed; HDFS resolves (and traverses) both paths before it
    // checks write access on either
    PathChecks.checkTraverseToLink(context, src, permissions);
    permissions.checkTraverse(context, src);
    PathChecks.checkTraverseForCreateToLink(context, dst, permissions);
    permissions.checkTraverse(context, dst);
    permissions.checkParentAccess(context, src, FsAction.WRITE);
    permissions.checkAncestorAccess(context, dst, FsAction.WRITE);
    Inode sourceInode = src.target();
    if (sourceInode == null) {
      throw new FileNotFoundException("rename source " + source + " is not found.");
    }
    if (source.isRoot()) {
      throw new IOException("rename source cannot be the root");
    }
    if (source.equals(destination)) {
      throw new FileAlreadyExistsException("The source " + source + " and destination " + destination
          + " are the same");
    }
    if (sourceInode.isSymlink() && destination.toString().equals(sourceInode.symlinkTarget())) {
      throw new FileAlreadyExistsException("Cannot rename symlink " + source + " to its target " + destination);
    }
    if (RenameSupport.isUnder(sourceInode, source, destination, dst)) {
      throw new IOException("Rename destination " + destination + " is a directory or file under source "
          + source);
    }
    if (destination.isRoot()) {
      throw new IOException("rename destination cannot be the root");
    }
    Inode existing = dst.target();
    if (existing != null) {
      if (existing.directory() != sourceInode.directory()) {
        throw new IOException("Source " + source + " and destination " + destination
            + " must both be directories");
      }
      if (!overwrite) {
        throw new FileAlreadyExistsException("rename destination " + destination + " already exists");
      }
      if (existing.directory() && existing.childrenCount() > 0) {
        throw new IOException("rename destination directory is not empty: " + destination);
      }
    }
    Inode destinationParent = dst.parent();
    if (destinationParent == null) {
      throw new FileNotFoundException("rename destination parent " + destination + " not found.");
    }
    if (!destinationParent.directory()) {
      throw new ParentNotDirectoryException("rename destination parent " + destination + " is a file.");
    }
    RenameSupport.move(context, services, registry, sourceInode, src.above(), dst.above(), destination, existing,
        counting);
    return null;
  }
}
