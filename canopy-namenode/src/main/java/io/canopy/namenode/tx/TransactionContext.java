package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One operation's view of the namespace inside its transaction: the paths it resolved, the locks it holds, and the
 * only way it may change inodes. Changing an inode that is not exclusively locked is an invariant failure.
 * Effects on the namenode's caches run only after commit.
 */
public final class TransactionContext {
  /** One row to lock: the lock order is the order of {@code path}. */
  private static final class LockTarget {
    final int depth;
    final InodeKey key;
    final Inode expected;
    LockMode mode;
    final List<ResolvedPath> paths = new ArrayList<>();

    LockTarget(int depth, InodeKey key, Inode expected, LockMode mode) {
      this.depth = depth;
      this.key = key;
      this.expected = expected;
      this.mode = mode;
    }
  }

  private final Transaction transaction;
  private final InodeHintCache hints;
  private final Map<Long, LockMode> locks = new HashMap<>();
  private final Map<FsPath, ResolvedPath> resolved = new HashMap<>();
  private final List<Runnable> afterCommit = new ArrayList<>();
  private Inode lockedById;

  TransactionContext(Transaction transaction, InodeHintCache hints) {
    this.transaction = transaction;
    this.hints = hints;
  }

  void acquire(LockRequest request) throws StoreException {
    if (request.hasInode()) {
      lockedById = transaction.inodes().getById(request.inodeId(), request.inodeMode()).orElse(null);
      if (lockedById != null) {
        locks.put(lockedById.id(), request.inodeMode());
      } else if (request.inodeMode() != LockMode.READ_COMMITTED
          && transaction.inodes().getById(request.inodeId(), LockMode.READ_COMMITTED).isPresent()) {
        // A move (delete + insert of the row) committed while this read waited for the lock: the locking read
        // skipped the old row and cannot see the new one. The inode exists: re-run on the moved row.
        throw new StalePathException("inode " + request.inodeId() + " moved while being locked");
      }
    }
    for (PathLock lock : request.paths()) {
      if (!resolved.containsKey(lock.path())) {
        resolved.put(lock.path(), resolve(lock.path()));
      }
    }
    TreeMap<FsPath, LockTarget> targets = new TreeMap<>();
    for (PathLock lock : request.paths()) {
      ResolvedPath path = resolved.get(lock.path());
      int depth = lock.path().depth();
      // The target is lockable when its parent exists and is a directory; locking an absent target's key confirms,
      // under the parent's lock, that it is still absent.
      if (depth == 0 || path.existingCount() >= depth && path.at(depth - 1).directory()) {
        addTarget(targets, path, depth, lock.targetMode());
      }
      int ancestorDepth = path.exists() ? depth - 1 : path.existingCount() - 1;
      for (int shared = lock.sharedAncestorsFromDepth(); shared < ancestorDepth; shared++) {
        addTarget(targets, path, shared, LockMode.SHARED);
      }
      if (ancestorDepth >= 0) {
        addTarget(targets, path, ancestorDepth, lock.ancestorMode());
        // Under the ancestor's lock, the first missing component must still be missing: otherwise a concurrent
        // operation created it after we resolved the path, and the operation re-runs on the new namespace.
        int firstMissing = ancestorDepth + 1;
        if (!path.exists() && firstMissing < depth && path.at(ancestorDepth).directory()) {
          addTarget(targets, path, firstMissing, lock.ancestorMode());
        }
      }
    }
    for (Map.Entry<FsPath, LockTarget> entry : targets.entrySet()) {
      lockTarget(entry.getKey(), entry.getValue());
    }
  }

  private void addTarget(TreeMap<FsPath, LockTarget> targets, ResolvedPath path, int depth, LockMode mode) {
    if (mode == LockMode.READ_COMMITTED) {
      return;
    }
    FsPath prefix = prefix(path.path(), depth);
    InodeKey key = depth == 0 ? InodePartitioning.ROOT_KEY
        : InodePartitioning.keyOf(path.at(depth - 1).id(), path.path().components().get(depth - 1));
    LockTarget target = targets.computeIfAbsent(prefix, p -> new LockTarget(depth, key, path.at(depth), mode));
    if (mode.covers(target.mode)) {
      target.mode = mode; // one lock per row, at the strongest mode any path needs: never an upgrade
    }
    target.paths.add(path);
  }

  private void lockTarget(FsPath prefix, LockTarget target) throws StoreException {
    Optional<Inode> row = transaction.inodes().get(target.key, target.mode);
    long expectedId = target.expected == null ? -1 : target.expected.id();
    long actualId = row.map(Inode::id).orElse(-1L);
    if (expectedId != actualId) {
      hints.invalidate(target.key.parentId(), target.key.name());
      throw new StalePathException("namespace changed at " + prefix + " while locking it (expected inode "
          + expectedId + ", found " + actualId + ")");
    }
    if (row.isPresent()) {
      locks.merge(row.get().id(), target.mode, (old, mode) -> mode.covers(old) ? mode : old);
      for (ResolvedPath path : target.paths) {
        path.set(target.depth, row.get()); // the locked version is the freshest
      }
    }
  }

  private static FsPath prefix(FsPath path, int depth) {
    FsPath result = FsPath.ROOT;
    for (int i = 0; i < depth; i++) {
      result = result.child(path.components().get(i));
    }
    return result;
  }

  /**
   * Resolves a path at read-committed: one batched primary-key read of every component whose key the hint cache
   * knows, then one read per component it does not (repairing the hints).
   */
  private ResolvedPath resolve(FsPath path) throws StoreException {
    List<String> names = path.components();
    List<InodeKey> batch = new ArrayList<>();
    batch.add(InodePartitioning.ROOT_KEY);
    long parentId = InodePartitioning.ROOT_ID;
    for (String name : names) {
      batch.add(InodePartitioning.keyOf(parentId, name));
      parentId = hints.get(parentId, name);
      if (parentId < 0) {
        break;
      }
    }
    Map<InodeKey, Inode> rows = transaction.inodes().getAll(batch, LockMode.READ_COMMITTED);
    ResolvedPath result = new ResolvedPath(path);
    Inode root = rows.get(InodePartitioning.ROOT_KEY);
    if (root == null) {
      throw new StoreException("The metadata store holds no namespace (no root inode): format it first");
    }
    result.set(0, root);
    for (int depth = 1; depth <= names.size(); depth++) {
      Inode parent = result.at(depth - 1);
      if (!parent.directory()) {
        break;
      }
      String name = names.get(depth - 1);
      InodeKey key = InodePartitioning.keyOf(parent.id(), name);
      Inode row = batch.contains(key) ? rows.get(key)
          : transaction.inodes().get(key, LockMode.READ_COMMITTED).orElse(null);
      if (row == null) {
        hints.invalidate(parent.id(), name);
        break;
      }
      hints.put(parent.id(), name, row.id());
      result.set(depth, row);
    }
    return result;
  }

  /** The resolution of a path named in the lock request. */
  public ResolvedPath path(FsPath path) {
    ResolvedPath result = resolved.get(path);
    if (result == null) {
      throw new IllegalStateException("operation did not declare a lock on " + path);
    }
    return result;
  }

  /** The inode locked by id, or null when it does not exist. */
  public Inode inodeLockedById() {
    return lockedById;
  }

  public LockMode lockOf(Inode inode) {
    return locks.getOrDefault(inode.id(), LockMode.READ_COMMITTED);
  }

  private void requireLock(Inode inode, LockMode needed, String action) {
    if (!lockOf(inode).covers(needed)) {
      throw new IllegalStateException("invariant: " + action + " of inode " + inode.id() + " ('" + inode.name()
          + "') needs a " + needed + " lock but the transaction holds " + lockOf(inode));
    }
  }

  /** Adds {@code child} under {@code parent}; the parent must be exclusively locked. */
  public void insertInode(Inode parent, Inode child) {
    requireLock(parent, LockMode.EXCLUSIVE, "adding a child");
    if (child.parentId() != parent.id()) {
      throw new IllegalStateException("invariant: inode " + child.id() + " inserted under " + parent.id()
          + " names parent " + child.parentId());
    }
    transaction.inodes().insert(child);
    locks.put(child.id(), LockMode.EXCLUSIVE);
    afterCommit.add(() -> hints.put(child.parentId(), child.name(), child.id()));
  }

  /** Rewrites an exclusively locked inode whose key does not change. */
  public void updateInode(Inode inode) {
    requireLock(inode, LockMode.EXCLUSIVE, "update");
    transaction.inodes().update(inode);
  }

  /** Removes an exclusively locked inode. */
  public void deleteInode(Inode inode) {
    requireLock(inode, LockMode.EXCLUSIVE, "delete");
    transaction.inodes().delete(inode.key());
    locks.put(inode.id(), LockMode.EXCLUSIVE);
    afterCommit.add(() -> hints.invalidate(inode.parentId(), inode.name()));
  }

  /** Moves an exclusively locked inode under an exclusively locked directory with a new name. */
  public Inode moveInode(Inode inode, Inode newParent, String newName) {
    requireLock(inode, LockMode.EXCLUSIVE, "move");
    requireLock(newParent, LockMode.EXCLUSIVE, "moving an inode into");
    Inode moved = inode.withLocation(InodePartitioning.partitionOf(newParent.id(), newName), newParent.id(),
        newName);
    transaction.inodes().delete(inode.key());
    transaction.inodes().insert(moved);
    afterCommit.add(() -> {
      hints.invalidate(inode.parentId(), inode.name());
      hints.put(moved.parentId(), moved.name(), moved.id());
    });
    return moved;
  }

  /**
   * A directory's children in name order. Children read with a lock are locked top-down (consistent with the
   * global order), so the directory must already hold at least that mode.
   */
  public List<Inode> children(Inode directory, String startAfter, int limit, LockMode mode) throws StoreException {
    if (mode != LockMode.READ_COMMITTED) {
      requireLock(directory, mode, "locking the children");
    }
    List<Inode> children = transaction.inodes().children(InodePartitioning.childrenPartitionOf(directory.id()),
        directory.id(), startAfter, limit, mode);
    if (mode != LockMode.READ_COMMITTED) {
      for (Inode child : children) {
        locks.merge(child.id(), mode, (old, next) -> next.covers(old) ? next : old);
      }
    }
    return children;
  }

  /**
   * The block-level tables of a file (blocks, replicas, leases): locked implicitly through the file's inode, so
   * the file must hold at least {@code needed}.
   */
  public Transaction fileData(Inode file, LockMode needed) {
    requireLock(file, needed, "file data access");
    return transaction;
  }

  /** Cluster-wide tables that are not under the inode hierarchy (datanodes, storages, invalidations, leases). */
  public Transaction cluster() {
    return transaction;
  }

  /** Runs after a successful commit (cache updates); never for a rolled-back attempt. */
  public void afterCommit(Runnable effect) {
    afterCommit.add(effect);
  }

  void committed() {
    afterCommit.forEach(Runnable::run);
  }
}
