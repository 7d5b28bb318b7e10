package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * rename (the original, deprecated semantics): when dst is an existing directory, src moves into it; never
 * overwrites; answers false instead of throwing for a missing source, the root, an existing destination, a missing
 * destination parent or a move into the source's own subtree. Permissions first, as in HDFS: execute on both paths'
 * ancestors, write on the source's parent (its sticky bit too) and on the destination's deepest existing ancestor.
 */
public final class RenameOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath source;
  private final FsPath destination;
  private final PermissionChecker permissions;
  private SubtreeUsageSource counting = SubtreeUsageSource.UNBOUNDED;

  public RenameOp(NamespaceServices services, DatanodeRegistry registry, FsPath source, FsPath destination,
      PermissionChecker permissions) {
    this.services = services;
    this.registry = registry;
    this.source = source;
    this.destination = destination;
    this.permissions = permissions;
  }


  /**
   * How the subtree moved between quota directories is counted (design 017): by default in this transaction,
   * whatever its size.
   */
  public RenameOp countingSubtree(SubtreeUsageSource counting) {
    this.counting = counting;
    return this;
  }

  @Override
  public String name() {
    return "rename";
  }

  @Override
  public LockRequest locks() {
    if (source.isRoot()) {
      return LockRequest.of(PathLock.writeTargetAndParent(source));
    }
    return counting.guard(destinationLocks());
  }

  private LockRequest destinationLocks() {
    // The destination may turn out to be a directory to move into: lock dst/name too (same global order).
    return LockRequest.of(PathLock.writeTargetAndParent(source), RenameSupport.destinationLock(source, destination),
        RenameSupport.destinationLock(source, destination.child(source.name()))).withQuotaAfterSubtree();
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath src = context.path(source);
    // links are moved themselves, and a link destination is not followed
    PathChecks.checkTraverseToLink(context, src, permissions);
    permissions.checkTraverse(context, src);
    Inode sourceInode = src.target();
    if (source.isRoot()) {
      return false; // only the source was locked
    }
    ResolvedPath dst = context.path(destination);
    // links are moved or replaced themselves, never followed; HDFS resolves (and traverses) both paths before it
    // checks write access on either
    PathChecks.checkTraverseForCreateToLink(context, dst, permissions);
    permissions.checkTraverse(context, dst);
    FsPath effective = destination;
    if (dst.target() != null && dst.target().directory()) {
      effective = destination.child(source.name());
      dst = context.path(effective);
    }
    permissions.checkParentAccess(context, src, FsAction.WRITE);
    permissions.checkAncestorAccess(context, dst, FsAction.WRITE);
    if (sourceInode == null) {
      return false;
    }
    if (effective.equals(source)) {
      return true;
    }
    if (sourceInode.isSymlink() && effective.toString().equals(sourceInode.symlinkTarget())) {
      return false; // HDFS refuses to rename a link onto its own target
    }
    if (RenameSupport.isUnder(sourceInode, source, effective, dst) || dst.target() != null) {
      return false;
    }
    Inode destinationParent = dst.parent();
    if (destinationParent == null || !destinationParent.directory() || effective.isRoot()) {
      return false;
    }
    RenameSupport.move(context, services, registry, sourceInode, src.above(), dst.above(), effective, null,
        counting);
    return true;
  }
}
