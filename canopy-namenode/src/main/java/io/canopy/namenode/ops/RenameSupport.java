package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.SubtreeUsage;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The move shared by rename and rename2, after each has applied its own validation rules. */
final class RenameSupport {
  private RenameSupport() {
  }

  /**
   * The destination's lock: exclusive on it and its parent, and shared on its ancestors below the deepest directory
   * the source's and destination's parents have in common. A concurrent move of one of those ancestors (say into
   * the source, which would close a cycle with this move) then waits for this one, and whichever runs second sees
   * the other's result under its locks.
   */
  static PathLock destinationLock(FsPath source, FsPath destination) {
    PathLock lock = PathLock.writeTargetAndParent(destination);
    if (source.isRoot() || destination.isRoot()) {
      return lock;
    }
    List<String> sourceParent = source.parent().components();
    List<String> destinationParent = destination.parent().components();
    int common = 0;
    while (common < sourceParent.size() && common < destinationParent.size()
        && sourceParent.get(common).equals(destinationParent.get(common))) {
      common++;
    }
    return common == destinationParent.size() ? lock : lock.withSharedAncestorsFrom(common + 1);
  }

  /** True when {@code destination}'s existing ancestors include {@code source} (a move into its own subtree). */
  static boolean isUnder(Inode source, FsPath sourcePath, FsPath destinationPath, ResolvedPath destination) {
    if (sourcePath.isAncestorOrSelf(destinationPath) && !sourcePath.equals(destinationPath)) {
      return true;
    }
    for (int depth = 0; depth < destination.existingCount(); depth++) {
      Inode ancestor = destination.at(depth);
      if (ancestor.id() == source.id() && depth < destinationPath.depth()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Moves the exclusively locked {@code source} (under {@code sourceAncestors}) to {@code destination} (under
   * {@code destinationAncestors}, the last being {@code destinationParent}), replacing {@code existing} (already
   * validated) when not null. Updates both parents' counts and times, and quota usage: what {@code existing} used
   * is given back; a move between different quota directories counts the source's subtree under exclusive locks
   * (nothing in it changes meanwhile), charges it to the quota directories it enters (checked, as HDFS's
   * verifyQuotaForRename), gives it back to those it leaves, and advances the quota epoch so that operations in the
   * subtree that read their paths before re-run. A move that stays under the same quota directories costs nothing.
   * The source's subtree is counted as {@code counting} says: up to a bound here, or already by the subtree protocol.
   */
  static void move(TransactionContext context, NamespaceServices services, DatanodeRegistry registry,
      Inode source, List<Inode> sourceAncestors, List<Inode> destinationAncestors, FsPath destination,
      Inode existing, SubtreeUsageSource counting) throws IOException {
    Inode sourceParent = sourceAncestors.get(sourceAncestors.size() - 1);
    Inode destinationParent = destinationAncestors.get(destinationAncestors.size() - 1);
    String name = destination.name();
    services.limits().checkComponentLength(destination.parent(), name);
    long now = services.now();
    boolean sameParent = sourceParent.id() == destinationParent.id();
    long destinationChildren = destinationParent.childrenCount();
    Set<Long> sourceQuotas = QuotaUpdater.quotaIds(sourceAncestors);
    Set<Long> destinationQuotas = QuotaUpdater.quotaIds(destinationAncestors);
    boolean crossesQuotas = !sourceQuotas.equals(destinationQuotas);
    Usage removed = null;
    if (existing != null) {
      removed = InodeRemover.removeSubtree(context, registry, existing);
      destinationChildren--;
    }
    if (!sameParent) {
      services.limits().checkDirectoryItems(destination.parent(), destinationChildren);
    }
    if (removed != null || crossesQuotas) {
      Usage moved = !crossesQuotas ? null : source.directory()
          ? counting.usageOf(context, source, "the directory moved to " + destination)
          : SubtreeUsage.of(context, List.of(source), LockMode.EXCLUSIVE);
      List<Inode> all = new ArrayList<>(sourceAncestors);
      all.addAll(destinationAncestors);
      context.lockQuotas(all); // every row at once, after every inode: the global lock order
      if (moved == null) {
        QuotaUpdater.release(context, destinationAncestors, -removed.namespace(), -removed.storageSpace());
      } else {
        // HDFS's verifyQuotaForRename: the directories entered are charged what comes in less what it replaces,
        // checked as one change (a replacement no larger than what it replaces passes an exceeded quota); those
        // shared with the source only lose what was replaced
        Usage replaced = removed == null ? new Usage(0, 0) : removed;
        QuotaUpdater.charge(context, destinationAncestors, sourceQuotas, moved.namespace() - replaced.namespace(),
            moved.storageSpace() - replaced.storageSpace());
        Set<Long> entered = new HashSet<>(destinationQuotas);
        entered.removeAll(sourceQuotas);
        QuotaUpdater.release(context, destinationAncestors, entered, -replaced.namespace(),
            -replaced.storageSpace());
        QuotaUpdater.release(context, sourceAncestors, destinationQuotas, -moved.namespace(),
            -moved.storageSpace());
        if (source.directory()) {
          context.bumpQuotaEpoch();
        }
      }
    }
    Inode target = sameParent ? sourceParent : destinationParent;
    context.moveInode(source, target, name);
    if (sameParent) {
      context.updateInode(sourceParent.withChildrenCount(destinationChildren).withTimes(now,
          sourceParent.accessTime()));
    } else {
      context.updateInode(sourceParent.withChildrenCount(sourceParent.childrenCount() - 1).withTimes(now,
          sourceParent.accessTime()));
      context.updateInode(destinationParent.withChildrenCount(destinationChildren + 1).withTimes(now,
          destinationParent.accessTime()));
    }
  }
}
