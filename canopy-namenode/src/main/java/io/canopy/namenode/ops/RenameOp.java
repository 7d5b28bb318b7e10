package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.BooleanAtMostOnce;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * rename (the original, deprecated semantics): when dst is an existing directory, src moves into it; never
 * overwrites; answers false instead of throwing for a missing source, the root, an existing destination, a missing
 * destination parent or a move into the source's own subtree.
 */
public final class RenameOp implements BooleanAtMostOnce {
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final FsPath source;
  private final FsPath destination;

  public RenameOp(NamespaceServices services, DatanodeRegistry registry, FsPath source, FsPath destination) {
    this.services = services;
    this.registry = registry;
    this.source = source;
    this.destination = destination;
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
    // The destination may turn out to be a directory to move into: lock dst/name too (same global order).
    return LockRequest.of(PathLock.writeTargetAndParent(source), RenameSupport.destinationLock(source, destination),
        RenameSupport.destinationLock(source, destination.child(source.name())));
  }

  @Override
  public Boolean execute(TransactionContext context) throws IOException {
    ResolvedPath src = context.path(source);
    PathChecks.checkTraverse(src);
    Inode sourceInode = src.target();
    if (sourceInode == null || source.isRoot()) {
      return false;
    }
    ResolvedPath dst = context.path(destination);
    PathChecks.checkTraverseForCreate(dst);
    FsPath effective = destination;
    if (dst.target() != null && dst.target().directory()) {
      effective = destination.child(source.name());
      dst = context.path(effective);
    }
    if (effective.equals(source)) {
      return true;
    }
    if (RenameSupport.isUnder(sourceInode, source, effective, dst) || dst.target() != null) {
      return false;
    }
    Inode destinationParent = dst.parent();
    if (destinationParent == null || !destinationParent.directory() || effective.isRoot()) {
      return false;
    }
    RenameSupport.move(context, services, registry, sourceInode, src.parent(), destinationParent, effective, null);
    return true;
  }
}
