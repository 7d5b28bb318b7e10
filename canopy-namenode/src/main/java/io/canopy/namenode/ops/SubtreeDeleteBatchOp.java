package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.quota.QuotaUpdater;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One transaction of the subtree protocol's delete phase (design 017): removes children of a directory of the held
 * subtree, about {@code budget} inodes' worth, bottom-up: files, links and directories emptied before, and whole the
 * small directories below it ({@code smallDirectories}: their inode counts, from the quiesce phase), each read and
 * locked top-down in this transaction. With them go their blocks, replicas, leases, attributes and quota rows; their
 * replicas' deletion is scheduled on the datanodes; what they used goes back to every quota directory above, and the
 * directory's children count drops. Each transaction leaves a consistent namespace: a namenode dying between two
 * leaves a smaller tree, still attached. Answers how many children it removed (0: the directory is empty).
 */
public final class SubtreeDeleteBatchOp implements Operation<Integer> {
  private final DatanodeRegistry registry;
  private final long rootId;
  private final long directoryId;
  private final Supplier<FsPath> directoryPath;
  private final int budget;
  private final Map<Long, Long> smallDirectories;
  private final long namenodeId;

  /** {@code namenodeId}: the namenode running the delete, checked against its eviction. */
  public SubtreeDeleteBatchOp(DatanodeRegistry registry, long rootId, long directoryId,
      Supplier<FsPath> directoryPath, int budget, Map<Long, Long> smallDirectories, long namenodeId) {
    if (budget < 1) {
      throw new IllegalArgumentException("delete budget must be positive, got " + budget);
    }
    this.registry = registry;
    this.rootId = rootId;
    this.directoryId = directoryId;
    this.directoryPath = directoryPath;
    this.budget = budget;
    this.smallDirectories = smallDirectories;
    this.namenodeId = namenodeId;
  }

  @Override
  public String name() {
    return "subtreeDeleteBatch";
  }

  /** Running it again after a lost commit reply removes the next children, which the delete wants anyway. */
  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(directoryId, LockMode.EXCLUSIVE).withQuota(null).insideSubtreeOperation(rootId);
  }

  @Override
  public Integer execute(TransactionContext context) throws IOException {
    Inode directory = SubtreeSteps.heldDirectory(context, directoryId, directoryPath);
    // evicted, its flag may have been ignored: a file created below since would be deleted with the rest
    SubtreeSteps.checkMembership(context, namenodeId, "delete " + directoryPath.get());
    List<Inode> page = context.children(directory, null, budget, LockMode.EXCLUSIVE);
    List<Inode> removed = new ArrayList<>();
    int taken = 0;
    long cost = 0;
    for (Inode child : page) {
      long size = child.directory() ? smallDirectories.getOrDefault(child.id(), 1L) : 1;
      if (taken > 0 && cost + size > budget) {
        break;
      }
      taken++;
      cost += size;
      if (child.directory() && child.childrenCount() > 0) {
        if (!smallDirectories.containsKey(child.id())) {
          throw new IOException("invariant: " + directoryPath.get().child(child.name()) + " still has "
              + child.childrenCount() + " children when the bottom-up delete of a held subtree reaches it");
        }
        removed.addAll(context.subtree(child, LockMode.EXCLUSIVE));
      } else {
        removed.add(child);
      }
    }
    if (taken == 0) {
      return 0;
    }
    Usage usage = InodeRemover.removeAll(context, registry, removed);
    List<Inode> above = new ArrayList<>(context.ancestorsOf(directory));
    above.add(directory);
    QuotaUpdater.release(context, above, -usage.namespace(), -usage.storageSpace());
    context.updateInode(directory.withChildrenCount(directory.childrenCount() - taken));
    return taken;
  }
}
