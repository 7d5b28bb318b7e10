package io.canopy.namenode.ops;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.InodeAcls;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.tx.CommitThenFail;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;

/** Adds children to directories, creating missing ancestors the way HDFS's mkdirs -p does. */
final class DirectoryMaker {
  private DirectoryMaker() {
  }

  /**
   * HDFS gives implicitly created parents {@code permission} plus write and execute for the owner (no sticky bit),
   * so that the caller can go on creating below them; the unmasked mode a client sent along is kept as it is, for
   * a parent default ACL to apply to.
   */
  static FsPermission withImplicitOwnerWriteExecute(FsPermission permission) {
    FsPermission masked = new FsPermission(permission.getUserAction().or(FsAction.WRITE_EXECUTE),
        permission.getGroupAction(), permission.getOtherAction());
    return permission.getUnmasked() == null ? masked : FsCreateModes.create(masked, permission.getUnmasked());
  }

  /**
   * Creates every missing directory of {@code path} above depth {@code untilDepth}, under the exclusively locked
   * deepest existing inode, each admitted ({@link #admit}: limits, then quotas) before it is written, as HDFS checks
   * each mkdir. As in HDFS, a directory refused after others were made keeps those: the failure comes as a
   * {@link CommitThenFail}. Returns the deepest directory afterwards (the parent of depth {@code untilDepth}).
   */
  static Inode createMissing(TransactionContext context, NamespaceServices services, ResolvedPath path,
      int untilDepth, FsPermission permission, String owner) throws IOException {
    Inode parent = path.deepestExisting();
    FsPath parentPath = path.deepestExistingPath();
    for (int depth = path.existingCount(); depth < untilDepth; depth++) {
      String name = path.path().components().get(depth - 1);
      admit(context, services, path, parent, parentPath, name, depth > path.existingCount());
      parent = addDirectory(context, services, parent, name, depth, permission, owner);
      parentPath = parentPath.child(name);
    }
    return parent;
  }

  /**
   * HDFS's checks before a new child {@code name} of {@code parent} (at {@code parentPath}, below the existing
   * directories of {@code path}): the name's length, the parent's item limit, then the namespace quotas above, which
   * it is charged to. Nothing is written when a check fails; when this call already made directories
   * ({@code madeParents}) the failure comes as a {@link CommitThenFail}, so they stay, as in HDFS.
   */
  static void admit(TransactionContext context, NamespaceServices services, ResolvedPath path, Inode parent,
      FsPath parentPath, String name, boolean madeParents) throws IOException {
    try {
      services.limits().checkComponentLength(parentPath, name);
      services.limits().checkDirectoryItems(parentPath, parent.childrenCount());
      QuotaUpdater.charge(context, path.above(), 1, 0);
    } catch (QuotaExceededException refused) { // HDFS's FSLimitExceptions are QuotaExceededExceptions too
      if (madeParents) {
        throw new CommitThenFail(refused);
      }
      throw refused;
    }
  }

  /**
   * Adds a new directory {@code name}, {@link #admit}ted already, at {@code depth} under the exclusively locked
   * {@code parent} (see {@link #attach}), with the {@code requested} mode or its parent's default ACL
   * ({@link NewInodeMode}). Returns the new directory.
   */
  static Inode addDirectory(TransactionContext context, NamespaceServices services, Inode parent, String name,
      int depth, FsPermission requested, String owner) throws IOException {
    InodeAcls.Stored mode = NewInodeMode.of(context, services.permissions(), parent, requested, true);
    Inode child = newDirectory(services, parent, name, depth, mode.permission(), owner);
    attach(context, parent, child);
    NewInodeMode.writeAcl(context, child, mode);
    return child;
  }

  /**
   * A new directory row at {@code depth} under {@code parent}, taking the parent's group as HDFS does; a directory
   * of the top levels spreads its children over partitions.
   */
  static Inode newDirectory(NamespaceServices services, Inode parent, String name, int depth, short permission,
      String owner) throws StoreException {
    long now = services.now();
    return Inode.builder()
        .id(services.ids().next(IdKind.INODE))
        .partitionId(InodePartitioning.partitionOf(parent, name))
        .parentId(parent.id())
        .name(name)
        .directory(true)
        .permission(permission)
        .owner(owner)
        .group(parent.group())
        .modificationTime(now)
        .spreadsChildren(InodePartitioning.spreads(depth, InodePartitioning.DEFAULT_SPREAD_LEVELS))
        .build();
  }

  /**
   * Adds {@code child}, {@link #admit}ted already, under the exclusively locked {@code parent}, and updates the
   * parent's children count and modification time. Returns the parent's new row.
   */
  static Inode attach(TransactionContext context, Inode parent, Inode child) throws IOException {
    context.insertInode(parent, child);
    Inode updated = parent.withChildrenCount(parent.childrenCount() + 1)
        .withTimes(child.modificationTime(), parent.accessTime());
    context.updateInode(updated);
    return updated;
  }
}
