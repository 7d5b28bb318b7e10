package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.ExtendedAttributeKey;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.ModeBits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.ipc.RetriableException;

/**
 * One operation's view of the namespace inside its transaction, and its only way to the data: the paths it resolved,
 * the locks it holds, what it read with them (a {@link RowCache}), and the guarded writes. Changing an inode that is
 * not exclusively locked is an invariant failure; so is any write in a read-only operation. The block-level tables of
 * a file are reached through {@link #fileData} (checking the file's lock), the cluster-wide ones through
 * {@link #cluster}. Effects on the namenode's caches run only after commit.
 *
 * <p>The locks are taken by the {@link LockPlanner} (the locking protocol with the hint cache); subtrees are read by
 * the {@link SubtreeReader}; quota rows are the transaction's {@link QuotaRows}.
 */
public final class TransactionContext {
  /**
   * The variable counting the changes of which quota rows a subtree is charged to (a quota set on a directory, a
   * move between quota directories); see {@link InodeHintCache#quotaEpoch()} and docs/design/008-quotas.md.
   */
  public static final String QUOTA_EPOCH = "quota.epoch";

  private final Transaction transaction;
  /** The tables operations may reach directly: {@link #fileData} and {@link #cluster} hand them out. */
  private final TransactionTables tables;
  private final InodeHintCache hints;
  private final RowCache cache = new RowCache();
  private final QuotaRows quotas;
  private final LockPlanner planner;
  /** Inodes {@link #lockHeldInodesById} locks per round trip at most. */
  static final int HELD_INODES_PER_ROUND_TRIP = 1000;

  private final SubtreeReader subtrees;
  private final SubtreeFlags flags;
  private final List<Runnable> afterCommit = new ArrayList<>();

  /** A context whose row locks queue first in {@code queued} (an engine that refuses held locks at once). */
  TransactionContext(Transaction transaction, InodeHintCache hints, SubtreeRows subtreeRows, String operation,
      SubtreeFlags flags, LocalLockQueue.Held queued) {
    this.transaction = transaction;
    this.tables = new TransactionTables(transaction);
    this.hints = hints;
    this.quotas = new QuotaRows(transaction, hints);
    this.flags = flags;
    this.planner = new LockPlanner(transaction, hints, cache, quotas, flags, queued);
    this.subtrees = new SubtreeReader(transaction, cache, subtreeRows, operation, flags);
  }

  /** Takes the operation's locks ({@link LockPlanner}); the context then answers from what they read. */
  void acquire(LockRequest request) throws IOException {
    planner.acquire(request);
  }

  /** Gives back the subtree rows this transaction held: it ended, and what it read is garbage. */
  void releaseSubtreeRows() {
    subtrees.releaseSubtreeRows();
  }

  // ---- what operations use ----

  /** The resolution of a path named in the lock request. */
  public ResolvedPath path(FsPath path) {
    ResolvedPath result = cache.resolved.get(path);
    if (result == null) {
      throw new IllegalStateException("operation did not declare a lock on " + path);
    }
    return result;
  }

  /** The inode locked by id, or null when it does not exist. */
  public Inode inodeLockedById() {
    return cache.lockedById;
  }

  /** The lease read with the locks ({@link LockRequest#withLease}), or empty when the holder has none. */
  public Optional<Lease> lease() {
    if (cache.lease == null) {
      throw new IllegalStateException("operation did not ask for a lease in its lock request");
    }
    return cache.lease.get();
  }

  public LockMode lockOf(Inode inode) {
    return cache.lockOf(inode.id());
  }

  private void requireLock(Inode inode, LockMode needed, String action) {
    if (!lockOf(inode).covers(needed)) {
      throw new IllegalStateException("invariant: " + action + " of inode " + inode.id() + " ('" + inode.name()
          + "') needs a " + needed + " lock but the transaction holds " + lockOf(inode));
    }
  }

  private void requireWritable(String action) {
    if (transaction.readOnly()) {
      throw new IllegalStateException("invariant: " + action + " in a read-only operation");
    }
  }

  /** Adds {@code child} under {@code parent}; the parent must be exclusively locked. */
  public void insertInode(Inode parent, Inode child) {
    requireWritable("adding an inode");
    requireLock(parent, LockMode.EXCLUSIVE, "adding a child");
    if (child.parentId() != parent.id()) {
      throw new IllegalStateException("invariant: inode " + child.id() + " inserted under " + parent.id()
          + " names parent " + child.parentId());
    }
    if (!child.key().equals(InodePartitioning.keyOf(parent, child.name()))) {
      throw new IllegalStateException("invariant: inode " + child.id() + " has key " + child.key()
          + " but belongs at " + InodePartitioning.keyOf(parent, child.name()));
    }
    transaction.inodes().insert(child);
    cache.locks.put(child.id(), LockMode.EXCLUSIVE);
    afterCommit.add(() -> hints.put(child));
  }

  /** Rewrites an exclusively locked inode whose key does not change. */
  public void updateInode(Inode inode) {
    requireWritable("updating an inode");
    requireLock(inode, LockMode.EXCLUSIVE, "update");
    transaction.inodes().update(inode);
  }

  /** Removes an exclusively locked inode (and its ACL entries, which go with it). */
  public void deleteInode(Inode inode) {
    requireWritable("deleting an inode");
    requireLock(inode, LockMode.EXCLUSIVE, "delete");
    transaction.inodes().delete(inode.key());
    if (ModeBits.hasAcl(inode.permission()) || !cache.acls.getOrDefault(inode.id(), List.of()).isEmpty()) {
      transaction.acls().deleteAll(inode.id());
      cache.acls.put(inode.id(), List.of());
    }
    cache.locks.put(inode.id(), LockMode.EXCLUSIVE);
    afterCommit.add(() -> hints.invalidate(inode.parentId(), inode.name()));
  }

  /** Moves an exclusively locked inode under an exclusively locked directory with a new name. */
  public Inode moveInode(Inode inode, Inode newParent, String newName) {
    requireWritable("moving an inode");
    requireLock(inode, LockMode.EXCLUSIVE, "move");
    requireLock(newParent, LockMode.EXCLUSIVE, "moving an inode into");
    Inode moved = inode.withLocation(InodePartitioning.partitionOf(newParent, newName), newParent.id(), newName);
    transaction.inodes().delete(inode.key());
    transaction.inodes().insert(moved);
    afterCommit.add(() -> {
      hints.invalidate(inode.parentId(), inode.name());
      hints.put(moved);
    });
    return moved;
  }

  /**
   * The ACL entries of those of {@code inodes} whose permission carries the ACL bit ({@link ModeBits}), by inode id:
   * read at most once per transaction, all the entries not read yet in one round trip, none at all when no inode
   * has the bit (the common case costs nothing). The rows are locked implicitly through their inode; those of an
   * inode the transaction does not lock are read at read-committed, like the inode itself.
   */
  public Map<Long, List<InodeAclEntry>> acls(Collection<Inode> inodes) throws StoreException {
    List<Long> missing = new ArrayList<>();
    for (Inode inode : inodes) {
      if (ModeBits.hasAcl(inode.permission()) && !cache.acls.containsKey(inode.id()) && !missing.contains(inode.id())) {
        missing.add(inode.id());
      }
    }
    if (!missing.isEmpty()) {
      Map<Long, List<InodeAclEntry>> read = transaction.acls().ofInodes(missing);
      for (Long id : missing) {
        cache.acls.put(id, read.getOrDefault(id, List.of()));
      }
    }
    Map<Long, List<InodeAclEntry>> result = new HashMap<>();
    for (Inode inode : inodes) {
      if (ModeBits.hasAcl(inode.permission())) {
        result.put(inode.id(), cache.acls.get(inode.id()));
      }
    }
    return result;
  }

  /**
   * Replaces the ACL entries of an exclusively locked inode (an empty list removes them). Setting the inode's ACL
   * bit to match is the caller's: {@link #updateInode}, or the row it inserts.
   */
  public void writeAcl(Inode inode, List<InodeAclEntry> entries) {
    requireWritable("changing an ACL");
    requireLock(inode, LockMode.EXCLUSIVE, "changing the ACL");
    transaction.acls().replace(inode.id(), entries);
    cache.acls.put(inode.id(), List.copyOf(entries));
  }

  /**
   * A directory's children in name order. Children read with a lock are locked top-down (consistent with the
   * global order), so the directory must already hold at least that mode. A page read with the locks
   * ({@link PathLock#withChildren}) costs no further round trip.
   */
  public List<Inode> children(Inode directory, String startAfter, int limit, LockMode mode) throws StoreException {
    if (mode != LockMode.NONE) {
      requireLock(directory, mode, "locking the children");
    }
    ReadBatch.Result<List<Inode>> page = cache.childrenPages.remove(new ChildrenPage(directory.id(), startAfter, limit,
        mode));
    List<Inode> children;
    if (page != null) {
      children = page.get();
    } else if (directory.spreadsChildren()) {
      children = transaction.inodes().spreadChildren(directory.id(), startAfter, limit, mode);
    } else {
      children = transaction.inodes().children(directory.id(), directory.id(), startAfter, limit, mode);
    }
    if (mode != LockMode.NONE) {
      for (Inode child : children) {
        cache.noteLock(child.id(), mode);
      }
    }
    return children;
  }

  /**
   * One page of children of each directory of {@code directories} (after {@code startsAfter}'s name at the same
   * position, null for the first page), at most {@code limit} each, in name order, read without locks and sent together
   * in one round trip (a {@link ReadBatch}; engines may run its scans side by side): how a count of a wide subtree
   * costs one round trip per level of many small directories instead of one per directory. Pages prefetched with the
   * locks are taken from there.
   */
  public List<List<Inode>> unlockedChildrenPages(List<Inode> directories, List<String> startsAfter, int limit)
      throws StoreException {
    if (directories.size() != startsAfter.size()) {
      throw new IllegalArgumentException("one start name per directory: " + directories.size() + " directories, "
          + startsAfter.size() + " start names");
    }
    List<ReadBatch.Result<List<Inode>>> pages = new ArrayList<>(directories.size());
    ReadBatch batch = null;
    for (int i = 0; i < directories.size(); i++) {
      Inode directory = directories.get(i);
      String after = startsAfter.get(i);
      ReadBatch.Result<List<Inode>> page = cache.childrenPages.remove(new ChildrenPage(directory.id(), after, limit,
          LockMode.NONE));
      if (page == null) {
        batch = batch == null ? transaction.batch() : batch;
        page = directory.spreadsChildren() ? batch.spreadChildren(directory.id(), after, limit, LockMode.NONE)
            : batch.children(directory.id(), directory.id(), after, limit, LockMode.NONE);
      }
      pages.add(page);
    }
    if (batch != null) {
      batch.execute();
    }
    List<List<Inode>> children = new ArrayList<>(pages.size());
    for (ReadBatch.Result<List<Inode>> page : pages) {
      children.add(page.get());
    }
    return children;
  }

  /**
   * How many children of {@code directory} come after {@code startAfter} in name order: with no start point the
   * directory's own children count, free; else one round trip counting them (a scan of their index entries).
   */
  public long childrenAfter(Inode directory, String startAfter) throws StoreException {
    if (startAfter == null || startAfter.isEmpty()) {
      return directory.childrenCount();
    }
    ReadBatch batch = transaction.batch();
    ReadBatch.Result<Long> count = directory.spreadsChildren() ? batch.countSpreadChildren(directory.id(), startAfter)
        : batch.countChildren(directory.id(), directory.id(), startAfter);
    batch.execute();
    return count.get();
  }

  /**
   * Every inode of the subtree under {@code root} (root first, parents before children), read level by level:
   * one round trip per level, each reading a page of children of every directory of the level, locked at
   * {@code mode} top-down. The first level comes from the lock round trip when the path was declared
   * {@link PathLock#withSubtree}. The inodes are held ({@link #holdSubtreeRows}) as each round trip reads them: a
   * subtree too large is refused as soon as a round trip reads past the limit, so the namenode holds at most one
   * round trip's rows more.
   */
  public List<Inode> subtree(Inode root, LockMode mode) throws IOException {
    return subtree(root, mode, Long.MAX_VALUE);
  }

  /**
   * {@link #subtree(Inode, LockMode)} of at most {@code maxInodes} inodes: a larger subtree is refused with
   * {@link LargeSubtreeException} as soon as a round trip reads past it, for the caller to take the subtree protocol
   * instead (design 017).
   */
  public List<Inode> subtree(Inode root, LockMode mode, long maxInodes) throws IOException {
    if (root.directory() && mode != LockMode.NONE) {
      requireLock(root, mode, "locking a subtree");
    }
    return subtrees.subtree(root, mode, maxInodes);
  }

  /**
   * Counts {@code rows} more that this transaction holds in memory for the subtree under {@code root} (its inodes as
   * they are read, the block-level rows of its files before a delete reads them) against the namenode's
   * {@link NameNodeConfig#SUBTREE_MAX_ROWS}: more than it on its own is refused ({@link SubtreeTooLargeException});
   * more than what other operations leave answers HDFS's RetriableException, as they give theirs back soon.
   */
  public void holdSubtreeRows(Inode root, long rows) throws IOException {
    subtrees.holdSubtreeRows(root, rows);
  }

  /**
   * The block-level rows of a file (blocks, replicas, replicas under construction): those read with its lock when
   * prefetched, else read now in one round trip. The file must hold at least {@code needed}.
   */
  public FileData readFileData(Inode file, LockMode needed) throws StoreException {
    requireLock(file, needed, "file data access");
    ReadBatch.Result<FileData> prefetched = cache.fileData.get(file.id());
    if (prefetched == null) {
      ReadBatch batch = transaction.batch();
      cache.prefetchFileData(batch, file.id(), false);
      batch.execute();
      prefetched = cache.fileData.get(file.id());
    }
    return prefetched.get();
  }

  /**
   * The rows of the blocks among {@code blockIds} of a file (those it holds) and of their replicas: read with its lock
   * when the request asked for them ({@link LockRequest#withFileBlocks}), else taken from its whole data when that was
   * read, else read now. The file must hold at least {@code needed}.
   */
  public FileData readFileBlocks(Inode file, Set<Long> blockIds, LockMode needed) throws StoreException {
    requireLock(file, needed, "file data access");
    RowCache.FileBlocks prefetched = cache.fileBlocks.get(file.id());
    if (prefetched != null && prefetched.blockIds().containsAll(blockIds)) {
      return prefetched.blockIds().equals(blockIds) ? prefetched.rows().get()
          : prefetched.rows().get().ofBlocks(blockIds);
    }
    if (cache.fileData.containsKey(file.id())) {
      return readFileData(file, needed).ofBlocks(blockIds);
    }
    ReadBatch batch = transaction.batch();
    ReadBatch.Result<ReadBatch.FileRows> rows = batch.fileRows(file.id(), blockIds);
    batch.execute();
    return FileData.of(rows.get());
  }

  /**
   * The block-level tables of a file (blocks, replicas, leases), for writes and for reads not covered by
   * {@link #readFileData}: locked implicitly through the file's inode, so the file must hold at least
   * {@code needed}.
   */
  public FileTables fileData(Inode file, LockMode needed) {
    requireLock(file, needed, "file data access");
    return tables;
  }

  /**
   * An inode's extended attributes: those read with its lock ({@link LockRequest#withXAttrs}), else read now. A read
   * outside the lock round trip of a read-only operation (which holds no lock) also re-reads the inode in the same
   * round trip, and re-runs the operation when it was moved or deleted meanwhile: the attributes answered always
   * belong to the inode the operation resolved.
   */
  public List<ExtendedAttribute> xattrs(Inode inode) throws StoreException {
    ReadBatch.Result<List<ExtendedAttribute>> prefetched = cache.xattrs.get(inode.id());
    if (prefetched != null) {
      return prefetched.get();
    }
    ReadBatch batch = transaction.batch();
    ReadBatch.Result<List<ExtendedAttribute>> read = batch.xattrsOf(inode.id());
    boolean unlocked = lockOf(inode) == LockMode.NONE;
    ReadBatch.Result<Optional<Inode>> again = unlocked ? batch.inodeById(inode.id(), LockMode.NONE) : null;
    batch.execute();
    if (again != null && !again.get().map(row -> row.key().equals(inode.key())).orElse(false)) {
      throw new StalePathException("inode " + inode.id() + " ('" + inode.name() + "') moved or was deleted while "
          + "its extended attributes were read");
    }
    cache.xattrs.put(inode.id(), read);
    return read.get();
  }

  /** Sets one extended attribute of an exclusively locked inode. */
  public void putXAttr(Inode inode, ExtendedAttribute attribute) {
    requireWritable("setting an extended attribute");
    requireLock(inode, LockMode.EXCLUSIVE, "setting an extended attribute");
    if (attribute.inodeId() != inode.id()) {
      throw new IllegalStateException("invariant: attribute of inode " + attribute.inodeId() + " set on "
          + inode.id());
    }
    transaction.xattrs().put(attribute);
    cache.xattrs.remove(inode.id()); // what was read is no longer the inode's state
  }

  /** Removes one extended attribute of an exclusively locked inode. */
  public void removeXAttr(Inode inode, ExtendedAttributeKey key) {
    requireWritable("removing an extended attribute");
    requireLock(inode, LockMode.EXCLUSIVE, "removing an extended attribute");
    if (key.inodeId() != inode.id()) {
      throw new IllegalStateException("invariant: attribute of inode " + key.inodeId() + " removed from "
          + inode.id());
    }
    transaction.xattrs().delete(key);
    cache.xattrs.remove(inode.id());
  }

  /** Removes every extended attribute of exclusively locked inodes that are being deleted, without reading them. */
  public void deleteXAttrsOf(List<Inode> inodes) {
    requireWritable("deleting extended attributes");
    List<Long> ids = new ArrayList<>(inodes.size());
    for (Inode inode : inodes) {
      requireLock(inode, LockMode.EXCLUSIVE, "deleting the extended attributes");
      ids.add(inode.id());
      cache.xattrs.remove(inode.id());
    }
    if (!ids.isEmpty()) {
      transaction.xattrs().deleteOfInodes(ids);
    }
  }

  /**
   * A running subtree operation (design 017) on the directory {@code rootId} of namenode {@code owner} that this one
   * conflicts with: throws {@link SubtreeLockedException} for the runner to wait, unless that namenode is known dead.
   */
  public void conflictsWithSubtreeOperation(long rootId, long owner, String path) throws SubtreeLockedException {
    flags.check(rootId, owner, () -> path);
  }

  /** Cluster-wide tables that are not under the inode hierarchy (datanodes, storages, invalidations, leases). */
  public ClusterTables cluster() {
    return tables;
  }

  /**
   * An inode by id as last committed, without a lock, for calls that list (open files, blocks' files): never to be
   * changed, and possibly gone or moved by the time the answer is used.
   */
  public Optional<Inode> unlockedInodeById(long id) throws StoreException {
    return transaction.inodes().getById(id, LockMode.NONE);
  }

  /**
   * Locks inodes found by id inside a subtree this operation holds through the subtree protocol (design 017), after
   * the declared locks, in ascending id order, one round trip per {@link #HELD_INODES_PER_ROUND_TRIP}: nothing else
   * locks rows there meanwhile but by-id operations on one file each (a writer's addBlock or complete), so no cycle
   * can form. Answers those still present.
   */
  public List<Inode> lockHeldInodesById(Collection<Long> ids, LockMode mode) throws StoreException {
    List<Long> sorted = new ArrayList<>(ids);
    sorted.sort(null);
    List<Inode> locked = new ArrayList<>(sorted.size());
    for (int from = 0; from < sorted.size(); from += HELD_INODES_PER_ROUND_TRIP) {
      ReadBatch batch = transaction.batch();
      List<ReadBatch.Result<Optional<Inode>>> rows = new ArrayList<>();
      for (long id : sorted.subList(from, Math.min(sorted.size(), from + HELD_INODES_PER_ROUND_TRIP))) {
        rows.add(batch.inodeById(id, mode));
      }
      batch.execute();
      for (ReadBatch.Result<Optional<Inode>> row : rows) {
        if (row.get().isPresent()) {
          cache.noteLock(row.get().get().id(), mode);
          locked.add(row.get().get());
        }
      }
    }
    return locked;
  }

  // ---- quotas ----

  /**
   * The existing directories above {@code inode}, root first: the target of a declared path (or, for a path whose
   * target does not exist yet, what will be created there), or the inode locked by id. These are the directories whose
   * quota usage a change of {@code inode} is charged to. For an inode locked by id, they come from the lock round
   * trip when the request declared {@link LockRequest#withQuota(FsPath)} and the hints knew the path; otherwise they
   * are read now (nothing when no quota exists at all, else one round trip per ancestor). The inode's lock keeps
   * them valid: whatever changes the quota directories above a subtree locks the whole subtree first, or, through the
   * subtree protocol (design 017), locks its open files again in its last transaction.
   */
  public List<Inode> ancestorsOf(Inode inode) throws StoreException {
    for (ResolvedPath path : cache.resolved.values()) {
      Inode target = path.target();
      if (target != null && target.id() == inode.id()) {
        return path.above();
      }
    }
    if (cache.lockedById != null && cache.lockedById.id() == inode.id()) {
      return planner.lockedFileAncestors();
    }
    throw new IllegalStateException("invariant: inode " + inode.id() + " ('" + inode.name() + "') is neither the "
        + "target of a declared path nor the inode locked by id");
  }

  /**
   * Locks exclusively, in one round trip and in inode id order, the quota rows of those {@code directories} with a
   * quota whose rows this transaction does not hold yet (after every inode lock: the global order), with the quota
   * epoch check when the lock round trip did not do it. A directory whose row is gone (its quota was cleared
   * meanwhile) makes the operation re-run. Operations lock every row they need in one call.
   */
  public void lockQuotas(Collection<Inode> directories) throws StoreException {
    requireWritable("locking quota rows");
    quotas.lock(directories, !quotas.epochChecked() && !planner.request().paths().isEmpty(),
        planner::changedAncestor);
  }

  /** The quota row of a directory with a quota, locked by this transaction. */
  public DirectoryQuota lockedQuota(Inode directory) {
    DirectoryQuota row = quotas.row(directory.id());
    if (!quotas.isLocked(directory.id()) || row == null) {
      throw new IllegalStateException("invariant: the quota row of directory " + directory.id() + " ('"
          + directory.name() + "') is not held by this transaction");
    }
    return row;
  }

  /**
   * A directory's own quota row read at {@code mode} (one round trip unless already locked), or empty. Locking it
   * is allowed only after the inodes the operation locks.
   */
  public Optional<DirectoryQuota> readQuota(Inode directory, LockMode mode) throws StoreException {
    return quotas.read(directory.id(), mode);
  }

  /** Rewrites a quota row this transaction holds locked. */
  public void updateQuota(DirectoryQuota quota) {
    requireWritable("updating a quota");
    quotas.update(quota);
  }

  /**
   * Gives the exclusively locked {@code directory} a quota row (or replaces the limits of its locked row) and its
   * inode the quota flag; the hints learn the flag after commit. Returns the directory's new row.
   */
  public Inode putQuota(Inode directory, DirectoryQuota quota) {
    requireWritable("setting a quota");
    requireLock(directory, LockMode.EXCLUSIVE, "setting a quota");
    if (quota.inodeId() != directory.id() || !directory.directory()) {
      throw new IllegalStateException("invariant: quota row " + quota + " put on inode " + directory.id());
    }
    quotas.put(quota);
    Inode flagged = directory.withQuota(true);
    if (!directory.hasQuota()) {
      transaction.inodes().update(flagged);
    }
    afterCommit.add(() -> {
      hints.put(flagged);
      hints.noteQuotasExist(true);
    });
    return flagged;
  }

  /**
   * Removes the quota row of the exclusively locked {@code directory} (cleared, or the directory goes away) and,
   * unless it is being deleted, its inode's flag. Returns the directory's new row.
   */
  public Inode removeQuota(Inode directory, boolean deletingDirectory) {
    requireWritable("removing a quota");
    requireLock(directory, LockMode.EXCLUSIVE, "removing a quota");
    quotas.remove(directory.id());
    Inode cleared = directory.withQuota(false);
    if (!deletingDirectory) {
      transaction.inodes().update(cleared);
      afterCommit.add(() -> hints.put(cleared));
    }
    return cleared;
  }

  /**
   * Counts one more change of which quota rows a subtree is charged to (a new quota on a directory, a move between
   * quota directories): operations that read their paths before this commits check their ancestors again. The
   * caller holds the changed subtree locked exclusively.
   */
  public void bumpQuotaEpoch() throws StoreException {
    requireWritable("changing the quota epoch");
    long next = quotas.bumpEpoch();
    afterCommit.add(() -> hints.noteQuotaEpoch(next));
  }

  /** Runs after a successful commit (cache updates); never for a rolled-back attempt. */
  public void afterCommit(Runnable effect) {
    afterCommit.add(effect);
  }

  void committed() {
    afterCommit.forEach(Runnable::run);
  }
}

