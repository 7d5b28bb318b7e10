package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Takes a transaction's locks: plans them in the total order of path prefixes, and reads what the operation asked to
 * prefetch, filling the transaction's {@link RowCache}.
 *
 * <p>Locking (docs/references.md [Design] s.6, [HopsFS-1M] Table I): when the hint cache knows every proper ancestor
 * of every path, the components, the locks (in path order) and the prefetched rows are read in <em>one</em> round
 * trip, and the hints are verified against the rows. Otherwise the paths are first resolved at read-committed (one
 * batched read of what the hints know, then one read per unknown component, repairing the hints), and the locks and
 * prefetches follow in one more round trip. An inode named by id is locked last. A lock that finds a different row
 * than expected means the namespace changed under us: the operation re-runs ({@link StalePathException}).
 */
final class LockPlanner {
  /** One row to lock: the lock order is the order of its path prefix. */
  private static final class LockTarget {
    final int depth;
    final InodeKey key;
    final long expectedId;
    LockMode mode;
    final List<ResolvedPath> paths = new ArrayList<>();
    ReadBatch.Result<Optional<Inode>> row;

    LockTarget(int depth, InodeKey key, long expectedId, LockMode mode) {
      this.depth = depth;
      this.key = key;
      this.expectedId = expectedId;
      this.mode = mode;
    }
  }

  /** A path as the hints predict it: ids and keys of components 0..n-1, and of the target when hinted. */
  private static final class Prediction {
    final FsPath path;
    final long[] ids;
    final InodeKey[] keys;
    final boolean[] spreads;
    final boolean[] quotas;
    final boolean[] directories;
    /** The depth of the first proper ancestor the hints do not know (predicted missing, with all below), or 0. */
    int missingFrom;

    /** A prediction of {@code path} whose root is the hinted {@code root}; the components below are filled in. */
    Prediction(FsPath path, InodeHintCache.Hint root) {
      this.path = path;
      this.ids = new long[path.depth() + 1];
      this.keys = new InodeKey[path.depth() + 1];
      this.spreads = new boolean[path.depth() + 1];
      this.quotas = new boolean[path.depth() + 1];
      this.directories = new boolean[path.depth() + 1];
      ids[0] = root.id();
      keys[0] = InodePartitioning.ROOT_KEY;
      spreads[0] = root.spreadsChildren();
      quotas[0] = root.hasQuota();
      directories[0] = true;
    }

    /** Whether the hint this prediction took for {@code depth} says exactly what {@code row} says. */
    boolean confirmedBy(int depth, Inode row) {
      return ids[depth] == row.id() && keys[depth].partitionId() == row.partitionId()
          && spreads[depth] == row.spreadsChildren() && quotas[depth] == row.hasQuota()
          && directories[depth] == row.directory();
    }
  }

  /**
   * How many times a by-id lock that found its row replaced by a move is taken again in place before the operation
   * re-runs. A writer's calls name its file by id; a client renaming that file in a loop holds its lock most of the
   * time, and every re-run would wait behind the next rename and find the row replaced again.
   */
  static final int MAX_RELOCKS_IN_PLACE = 3;

  /** Ancestors read one by one when a file locked by id has no usable path: more than this is a cycle. */
  private static final int MAX_ANCESTOR_WALK = 10_000;

  private final Transaction transaction;
  private final InodeHintCache hints;
  private final RowCache cache;
  private final QuotaRows quotas;
  private final SubtreeFlags flags;
  /** Components resolved before the locks (no hints), read again after them for their subtree flags. */
  private ReadBatch.Result<Map<InodeKey, Inode>> flagRecheck;
  private LockRequest request = LockRequest.none();
  /** The quota epoch, read as the first statement of the first round trip when the namenode knew none yet. */
  private ReadBatch.Result<OptionalLong> firstEpochRead;
  private boolean firstEpochPending;
  /** For an inode locked by id with quota: whether any quota exists, and its ancestors once known. */
  private ReadBatch.Result<Boolean> anyQuota;
  private List<Inode> fileAncestors;
  /** Where this transaction's row locks queue first, for an engine that refuses held locks at once. */
  private final LocalLockQueue.Held queued;

  LockPlanner(Transaction transaction, InodeHintCache hints, RowCache cache, QuotaRows quotas, SubtreeFlags flags,
      LocalLockQueue.Held queued) {
    this.queued = queued;
    this.transaction = transaction;
    this.hints = hints;
    this.cache = cache;
    this.quotas = quotas;
    this.flags = flags;
  }

  /** The request the locks were taken for (none before {@link #acquire}). */
  LockRequest request() {
    return request;
  }

  /**
   * Takes the request's locks and reads what it asked to prefetch, in one round trip when the hints know the paths
   * (else resolving them first), filling the transaction's {@link RowCache}.
   */
  void acquire(LockRequest request) throws IOException {
    this.request = request;
    boolean pathQuota = request.quota() != LockRequest.QuotaLocks.NONE && !request.paths().isEmpty();
    Map<FsPath, Prediction> predictions = predict(request);
    ReadBatch batch = transaction.batch();
    TreeMap<FsPath, LockTarget> targets;
    ReadBatch.Result<Map<InodeKey, Inode>> unlocked = null;
    firstEpochPending = pathQuota && !quotas.epochKnown();
    if (predictions != null) {
      if (firstEpochPending) {
        firstEpochRead = batch.longVariable(TransactionContext.QUOTA_EPOCH); // before any component is read
        firstEpochPending = false;
      }
      targets = plan(request, predictions);
      Set<InodeKey> readCommitted = new LinkedHashSet<>(); // in path order, each key once
      for (Prediction prediction : predictions.values()) {
        for (int depth = 0; depth < prediction.keys.length; depth++) {
          InodeKey key = prediction.keys[depth];
          if (key != null && !targets.containsKey(prediction.path.ancestor(depth))) {
            readCommitted.add(key);
          }
        }
      }
      for (LockTarget target : targets.values()) {
        target.row = batch.inode(target.key, target.mode);
      }
      // The components read without a lock come after the locks in the pipeline: an operation that waited for a lock
      // held by a subtree operation's quiesce (design 017) then sees the flag that operation committed above it.
      unlocked = batch.inodes(new ArrayList<>(readCommitted), LockMode.NONE);
    } else {
      for (PathLock lock : request.paths()) {
        if (!cache.resolved.containsKey(lock.path())) {
          cache.resolved.put(lock.path(), resolve(lock.path()));
        }
      }
      targets = planFromResolved(request);
      for (LockTarget target : targets.values()) {
        target.row = batch.inode(target.key, target.mode);
      }
      // the components resolved before the locks, read again after them for their subtree flags (see above)
      List<InodeKey> unlockedKeys = unlockedComponents(targets);
      flagRecheck = unlockedKeys.isEmpty() ? null : batch.inodes(unlockedKeys, LockMode.NONE);
    }
    ReadBatch.Result<Optional<Inode>> byId = null;
    if (request.hasInode()) {
      // Paths and an inode by id are never requested together today; the id comes last in the global order.
      byId = batch.inodeById(request.inodeId(), request.inodeMode());
      if (request.inodeFileBlocks() != null) {
        cache.prefetchFileBlocks(batch, request.inodeId(), request.inodeFileBlocks());
      }
      if (request.inodeFileData() != PathLock.FileRead.NONE) {
        cache.prefetchFileData(batch, request.inodeId(),
            request.inodeFileData() == PathLock.FileRead.ROWS_AND_SMALL_DATA);
      }
    }
    for (PathLock lock : request.paths()) {
      prefetch(batch, lock, predictions, request.xattrs());
    }
    if (request.leaseHolder() != null) {
      cache.lease = batch.lease(request.leaseHolder());
    }
    // Quota rows come after every inode (the global lock order), in inode id order.
    Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> quotaReads = new HashMap<>();
    if (pathQuota && request.quota() == LockRequest.QuotaLocks.WITH_LOCKS) {
      quotaReads = quotas.addLocks(batch, predictions != null ? predictedQuotaIds(predictions) : resolvedQuotaIds());
    }
    ReadBatch.Result<OptionalLong> lastEpochRead = pathQuota ? batch.longVariable(TransactionContext.QUOTA_EPOCH) : null;
    Prediction chain = null;
    ReadBatch.Result<Map<InodeKey, Inode>> chainRows = null;
    if (request.hasInode() && request.quota() != LockRequest.QuotaLocks.NONE) {
      anyQuota = batch.anyQuota();
      chain = hints.quotasExist() ? predictChain(request.quotaHintPath()) : null;
      if (chain != null) {
        chainRows = batch.inodes(List.of(chain.keys), LockMode.NONE); // after the file's lock
        List<Long> ids = new ArrayList<>();
        for (int depth = 0; depth < chain.ids.length; depth++) {
          if (chain.quotas[depth]) {
            ids.add(chain.ids[depth]);
          }
        }
        if (!quotaReads.isEmpty()) { // two id-ordered sets of quota locks would break the global order
          throw new IllegalStateException("invariant: a request locks quota rows for its paths or for its inode, "
              + "not both");
        }
        quotaReads = quotas.addLocks(batch, ids);
      }
    }
    queueFor(targets, request, quotaReads.keySet());
    batch.execute();
    if (predictions != null) {
      verifyPredictions(request, predictions, targets, unlocked.get());
    } else {
      for (Map.Entry<FsPath, LockTarget> entry : targets.entrySet()) {
        applyLock(entry.getKey(), entry.getValue());
      }
    }
    if (byId != null) {
      acquiredById(request, byId.get().orElse(null), !quotaReads.isEmpty());
    }
    quotas.recordLocks(quotaReads);
    if (pathQuota) {
      if (firstEpochRead != null) {
        quotas.epochRead(firstEpochRead.get());
      }
      quotas.checkEpoch(lastEpochRead.get().orElse(0), this::changedAncestor);
      if (request.quota() == LockRequest.QuotaLocks.WITH_LOCKS) {
        for (PathLock lock : request.paths()) {
          quotas.requireLocked(cache.resolved.get(lock.path()).above(), lock.path());
        }
      }
    }
    if (anyQuota != null) {
      hints.noteQuotasExist(anyQuota.get());
      if (chain != null) {
        fileAncestors = verifiedChain(chain, chainRows.get());
      }
    }
    checkSubtreeFlags();
  }

  /**
   * Waits in the namenode's local queue for the rows about to be locked (the path targets, the inode named by id, the
   * quota rows of {@code quotaDirectories}, exclusively), before any of them is asked of the database.
   */
  private void queueFor(TreeMap<FsPath, LockTarget> targets, LockRequest request, Set<Long> quotaDirectories)
      throws IOException {
    if (!queued.active()) {
      return; // PostgreSQL queues lock requests itself: nothing to build on every operation's path
    }
    Map<LocalLockQueue.Key, LockMode> wanted = new HashMap<>();
    for (long directory : quotaDirectories) {
      wanted.put(LocalLockQueue.Key.quota(directory), LockMode.EXCLUSIVE);
    }
    for (LockTarget target : targets.values()) {
      wanted.merge(LocalLockQueue.Key.of(target.key), target.mode, LockPlanner::stronger);
    }
    if (request.hasInode()) {
      wanted.merge(LocalLockQueue.Key.byId(request.inodeId()), request.inodeMode(), LockPlanner::stronger);
    }
    queued.lock(wanted);
  }

  private static LockMode stronger(LockMode a, LockMode b) {
    return a.covers(b) ? a : b;
  }

  /**
   * A directory on a declared path held by another subtree operation (design 017) stops this one: its components
   * were read with the locks, so the flag costs no round trip. Checked once every lock is taken: a flag set before a
   * lock this operation waited for is seen.
   */
  private void checkSubtreeFlags() throws SubtreeLockedException {
    for (PathLock lock : request.paths()) {
      ResolvedPath path = cache.resolved.get(lock.path());
      for (int depth = 0; depth < path.existingCount(); depth++) {
        int at = depth;
        flags.check(path.at(depth), request.subtreeRoot(), () -> lock.path().ancestor(at).toString());
      }
    }
    if (flagRecheck != null) {
      for (Inode inode : flagRecheck.get().values()) {
        flags.check(inode, request.subtreeRoot(), () -> "inode " + inode.id() + " (" + inode.name() + ")");
      }
      flagRecheck = null;
    }
  }

  /** The keys of the declared paths' existing components that are no lock target, each once. */
  private List<InodeKey> unlockedComponents(TreeMap<FsPath, LockTarget> targets) {
    Set<InodeKey> keys = new LinkedHashSet<>();
    for (PathLock lock : request.paths()) {
      ResolvedPath path = cache.resolved.get(lock.path());
      for (int depth = 0; depth < path.existingCount(); depth++) {
        if (!targets.containsKey(lock.path().ancestor(depth))) {
          keys.add(path.at(depth).key());
        }
      }
    }
    return new ArrayList<>(keys);
  }

  // ---- quota rows in the lock round trip ----

  /** Ids of the directories the hints say have a quota above each predicted path's target, in id order. */
  private Set<Long> predictedQuotaIds(Map<FsPath, Prediction> predictions) {
    Set<Long> ids = new TreeSet<>();
    for (Prediction prediction : predictions.values()) {
      for (int depth = 0; depth < prediction.path.depth(); depth++) {
        if (prediction.quotas[depth]) {
          ids.add(prediction.ids[depth]);
        }
      }
    }
    return ids;
  }

  /** Ids of the directories with a quota above each resolved path's target, in id order. */
  private Set<Long> resolvedQuotaIds() {
    Set<Long> ids = new TreeSet<>();
    for (PathLock lock : request.paths()) {
      for (Inode inode : cache.resolved.get(lock.path()).above()) {
        if (inode.hasQuota()) {
          ids.add(inode.id());
        }
      }
    }
    return ids;
  }

  /**
   * The first ancestor of a declared path that differs from the row read now (moved, or its quota flag changed),
   * described, or null when none does: the quota epoch check's second look (one round trip).
   */
  String changedAncestor() throws StoreException {
    List<InodeKey> keys = new ArrayList<>();
    List<Inode> used = new ArrayList<>();
    for (PathLock lock : request.paths()) {
      List<Inode> above = cache.resolved.get(lock.path()).above();
      for (int depth = 0; depth < above.size(); depth++) {
        keys.add(depth == 0 ? InodePartitioning.ROOT_KEY
            : InodePartitioning.keyOf(above.get(depth - 1), lock.path().components().get(depth - 1)));
        used.add(above.get(depth));
      }
    }
    Map<InodeKey, Inode> now = transaction.inodes().getAll(keys, LockMode.NONE);
    for (int i = 0; i < keys.size(); i++) {
      Inode row = now.get(keys.get(i));
      if (row == null || row.id() != used.get(i).id() || row.hasQuota() != used.get(i).hasQuota()) {
        if (row != null) {
          rememberHint(row);
        } else {
          hints.invalidate(keys.get(i).parentId(), keys.get(i).name());
        }
        return "inode " + used.get(i).id() + " ('" + used.get(i).name() + "') is now " + row;
      }
    }
    return null;
  }

  /** The directories from the root to the parent of the request's hint path, as the hints predict them, or null. */
  private Prediction predictChain(FsPath hintPath) {
    InodeHintCache.Hint root = hints.root();
    if (root == null || hintPath == null || hintPath.isRoot()) {
      return null;
    }
    FsPath parentPath = hintPath.parent();
    Prediction prediction = new Prediction(parentPath, root);
    List<String> names = parentPath.components();
    for (int depth = 1; depth <= names.size(); depth++) {
      InodeHintCache.Hint hint = hints.get(prediction.ids[depth - 1], names.get(depth - 1));
      if (hint == null) {
        return null;
      }
      prediction.ids[depth] = hint.id();
      prediction.keys[depth] = new InodeKey(hint.partitionId(), prediction.ids[depth - 1], names.get(depth - 1));
      prediction.spreads[depth] = hint.spreadsChildren();
      prediction.quotas[depth] = hint.hasQuota();
      prediction.directories[depth] = hint.directory();
    }
    return prediction;
  }

  /**
   * The predicted ancestors of the file locked by id when the rows confirm them (every component present with the
   * hinted id, the last one the file's parent), else null (found on demand). A quota the hints did not predict
   * makes the operation re-run with the hints repaired.
   */
  private List<Inode> verifiedChain(Prediction chain, Map<InodeKey, Inode> rows) throws StalePathException {
    if (cache.lockedById == null) {
      return null;
    }
    List<Inode> ancestors = new ArrayList<>();
    for (int depth = 0; depth < chain.ids.length; depth++) {
      Inode row = rows.get(chain.keys[depth]);
      if (row == null || row.id() != chain.ids[depth] || !row.directory()) {
        if (depth > 0) {
          hints.invalidate(chain.ids[depth - 1], chain.keys[depth].name());
        }
        return null;
      }
      rememberHint(row);
      ancestors.add(row);
    }
    if (ancestors.get(ancestors.size() - 1).id() != cache.lockedById.parentId()) {
      return null; // the file was moved: its client still names the old path
    }
    quotas.requireLocked(ancestors, "inode " + cache.lockedById.id());
    return Collections.unmodifiableList(ancestors);
  }

  // ---- prediction from the hint cache (one round trip) ----

  /** Predictions for every path, or null when some path's proper ancestors are not all hinted. */
  private Map<FsPath, Prediction> predict(LockRequest request) {
    InodeHintCache.Hint root = hints.root();
    if (root == null || request.paths().isEmpty()) {
      return null;
    }
    Map<FsPath, Prediction> result = new LinkedHashMap<>();
    for (PathLock lock : request.paths()) {
      FsPath path = lock.path();
      if (result.containsKey(path)) {
        continue;
      }
      Prediction prediction = new Prediction(path, root);
      List<String> names = path.components();
      for (int depth = 1; depth <= names.size(); depth++) {
        String name = names.get(depth - 1);
        long parentId = prediction.ids[depth - 1];
        InodeHintCache.Hint hint = hints.get(parentId, name);
        if (hint == null) {
          // The target may or may not exist: its key is known from its parent. So may an unknown ancestor that
          // another path of the request names as its target (a rename locks dst and dst/name, and dst is usually a
          // new name): it is predicted missing, with everything below it; if it exists after all, the rows read
          // say so and the operation re-runs with the hint learnt. Any other unknown ancestor is resolved
          // component by component, the cheaper way for a namenode whose hints are cold.
          if (depth < names.size() && !isRequestTarget(request, path.ancestor(depth))) {
            return null;
          }
          prediction.ids[depth] = -1;
          prediction.keys[depth] = InodePartitioning.keyOf(parentId, prediction.spreads[depth - 1], name);
          if (depth < names.size()) {
            prediction.missingFrom = depth;
            java.util.Arrays.fill(prediction.ids, depth + 1, prediction.ids.length, -1);
            break;
          }
        } else {
          prediction.ids[depth] = hint.id();
          prediction.keys[depth] = new InodeKey(hint.partitionId(), parentId, name);
          prediction.spreads[depth] = hint.spreadsChildren();
          prediction.quotas[depth] = hint.hasQuota();
          prediction.directories[depth] = hint.directory();
        }
      }
      result.put(path, prediction);
    }
    return result;
  }

  private static boolean isRequestTarget(LockRequest request, FsPath path) {
    for (PathLock lock : request.paths()) {
      if (lock.path().equals(path)) {
        return true;
      }
    }
    return false;
  }

  /** The lock plan on predicted paths: every proper ancestor exists and is a directory. */
  private TreeMap<FsPath, LockTarget> plan(LockRequest request, Map<FsPath, Prediction> predictions) {
    TreeMap<FsPath, LockTarget> targets = new TreeMap<>();
    for (PathLock lock : request.paths()) {
      Prediction prediction = predictions.get(lock.path());
      int depth = lock.path().depth();
      int ancestorDepth = depth - 1;
      if (prediction.missingFrom > 0) {
        // as planFromResolved plans a path missing from there: its deepest existing ancestor, and the first
        // missing component under that ancestor's lock
        ancestorDepth = prediction.missingFrom - 1;
        add(targets, lock.path(), prediction.missingFrom, prediction.keys[prediction.missingFrom], -1,
            lock.ancestorMode(), null);
      } else {
        add(targets, lock.path(), depth, prediction.keys[depth], prediction.ids[depth], lock.targetMode(), null);
      }
      for (int shared = lock.sharedAncestorsFromDepth(); shared < ancestorDepth; shared++) {
        add(targets, lock.path(), shared, prediction.keys[shared], prediction.ids[shared], LockMode.SHARED, null);
      }
      if (ancestorDepth >= 0) {
        add(targets, lock.path(), ancestorDepth, prediction.keys[ancestorDepth], prediction.ids[ancestorDepth],
            lock.ancestorMode(), null);
      }
    }
    return targets;
  }

  /**
   * Checks the rows read against the hints. A hinted component that is gone or has another id, or an ancestor
   * that is not a directory, makes the operation re-run with the hint dropped. Then the locks the rows call for
   * must all be among those taken; otherwise it re-runs too (resolving step by step).
   */
  private void verifyPredictions(LockRequest request, Map<FsPath, Prediction> predictions,
      TreeMap<FsPath, LockTarget> targets, Map<InodeKey, Inode> unlocked) throws StalePathException {
    Map<InodeKey, Inode> rows = new HashMap<>(unlocked);
    for (Map.Entry<FsPath, LockTarget> entry : targets.entrySet()) {
      LockTarget target = entry.getValue();
      target.row.get().ifPresent(row -> rows.put(target.key, row));
    }
    for (Prediction prediction : predictions.values()) {
      ResolvedPath path = new ResolvedPath(prediction.path);
      List<String> names = prediction.path.components();
      for (int depth = 0; depth <= names.size(); depth++) {
        Inode row = rows.get(prediction.keys[depth]);
        boolean hinted = prediction.ids[depth] >= 0;
        if (hinted && (row == null || row.id() != prediction.ids[depth])) {
          if (depth > 0) {
            hints.invalidate(prediction.ids[depth - 1], names.get(depth - 1));
          }
          throw new StalePathException("hint for " + prediction.path.ancestor(depth) + " is stale (expected inode "
              + prediction.ids[depth] + ", found " + (row == null ? "none" : row.id()) + ")");
        }
        if (row == null) {
          break;
        }
        if (depth < names.size() && !row.directory() && prediction.ids[depth + 1] >= 0) {
          hints.invalidate(row.id(), names.get(depth)); // a file has no children: the hint below it is wrong
          throw new StalePathException(prediction.path.ancestor(depth) + " is no longer a directory");
        }
        path.set(depth, row);
        if (!prediction.confirmedBy(depth, row)) {
          rememberHint(row); // a hint already saying this costs the cache's write lock for nothing
        }
        if (!row.directory()) {
          break;
        }
        if (prediction.missingFrom > 0 && depth == prediction.missingFrom) {
          // predicted missing, but a directory is there: what lies below it was not read (the hint is learnt now)
          throw new StalePathException(prediction.path.ancestor(depth) + " exists: resolving the path again");
        }
      }
      cache.resolved.put(prediction.path, path);
    }
    for (LockTarget target : targets.values()) {
      target.row.get().ifPresent(row -> cache.noteLock(row.id(), target.mode));
    }
    // The plan the rows call for must be covered by the locks taken.
    TreeMap<FsPath, LockTarget> needed = planFromResolved(request);
    for (Map.Entry<FsPath, LockTarget> entry : needed.entrySet()) {
      LockTarget need = entry.getValue();
      LockTarget taken = targets.get(entry.getKey());
      if (taken == null || !taken.mode.covers(need.mode) || !taken.key.equals(need.key)) {
        throw new StalePathException("the namespace at " + entry.getKey() + " differs from the hints: locking "
            + "step by step");
      }
    }
  }

  // ---- step-by-step resolution (hint misses) ----

  /** The lock plan on paths resolved at read-committed. */
  private TreeMap<FsPath, LockTarget> planFromResolved(LockRequest request) {
    TreeMap<FsPath, LockTarget> targets = new TreeMap<>();
    for (PathLock lock : request.paths()) {
      ResolvedPath path = cache.resolved.get(lock.path());
      int depth = lock.path().depth();
      // The target is lockable when its parent exists and is a directory; locking an absent target's key confirms,
      // under the parent's lock, that it is still absent.
      if (depth == 0 || path.existingCount() >= depth && path.at(depth - 1).directory()) {
        addResolved(targets, path, depth, lock.targetMode());
      }
      int ancestorDepth = path.exists() ? depth - 1 : path.existingCount() - 1;
      for (int shared = lock.sharedAncestorsFromDepth(); shared < ancestorDepth; shared++) {
        addResolved(targets, path, shared, LockMode.SHARED);
      }
      if (ancestorDepth >= 0) {
        addResolved(targets, path, ancestorDepth, lock.ancestorMode());
        // Under the ancestor's lock, the first missing component must still be missing: otherwise a concurrent
        // operation created it after we resolved the path, and the operation re-runs on the new namespace.
        int firstMissing = ancestorDepth + 1;
        if (!path.exists() && firstMissing < depth && path.at(ancestorDepth).directory()) {
          addResolved(targets, path, firstMissing, lock.ancestorMode());
        }
      }
    }
    return targets;
  }

  private void addResolved(TreeMap<FsPath, LockTarget> targets, ResolvedPath path, int depth, LockMode mode) {
    InodeKey key = depth == 0 ? InodePartitioning.ROOT_KEY
        : InodePartitioning.keyOf(path.at(depth - 1), path.path().components().get(depth - 1));
    Inode expected = path.at(depth);
    add(targets, path.path(), depth, key, expected == null ? -1 : expected.id(), mode, path);
  }

  private static void add(TreeMap<FsPath, LockTarget> targets, FsPath path, int depth, InodeKey key,
      long expectedId, LockMode mode, ResolvedPath resolvedPath) {
    if (mode == LockMode.NONE) {
      return;
    }
    LockTarget target = targets.computeIfAbsent(path.ancestor(depth), p -> new LockTarget(depth, key, expectedId,
        mode));
    target.mode = RowCache.stronger(target.mode, mode); // one lock per row, at the strongest mode any path needs
    if (resolvedPath != null) {
      target.paths.add(resolvedPath);
    }
  }

  private void applyLock(FsPath prefix, LockTarget target) throws StalePathException {
    Optional<Inode> row = target.row.get();
    long actualId = row.map(Inode::id).orElse(-1L);
    if (target.expectedId != actualId) {
      hints.invalidate(target.key.parentId(), target.key.name());
      throw new StalePathException("namespace changed at " + prefix + " while locking it (expected inode "
          + target.expectedId + ", found " + actualId + ")");
    }
    if (row.isPresent()) {
      rememberHint(row.get());
      cache.noteLock(row.get().id(), target.mode);
      for (ResolvedPath path : target.paths) {
        path.set(target.depth, row.get()); // the locked version is the freshest
      }
    }
  }

  /**
   * Resolves a path at read-committed: one batched primary-key read of every component whose key the hint cache
   * knows, then one read per component it does not (repairing the hints).
   */
  private ResolvedPath resolve(FsPath path) throws StoreException {
    List<String> names = path.components();
    List<InodeKey> keys = new ArrayList<>();
    keys.add(InodePartitioning.ROOT_KEY);
    InodeHintCache.Hint parent = hints.root();
    long parentId = InodePartitioning.ROOT_ID;
    for (String name : names) {
      if (parent == null) {
        break;
      }
      keys.add(InodePartitioning.keyOf(parentId, parent.spreadsChildren(), name));
      parent = hints.get(parentId, name);
      parentId = parent == null ? -1 : parent.id();
    }
    Map<InodeKey, Inode> rows;
    if (firstEpochPending) {
      // the attempt's first round trip: the quota epoch before any component
      ReadBatch batch = transaction.batch();
      firstEpochRead = batch.longVariable(TransactionContext.QUOTA_EPOCH);
      ReadBatch.Result<Map<InodeKey, Inode>> read = batch.inodes(keys, LockMode.NONE);
      batch.execute();
      firstEpochPending = false;
      rows = read.get();
    } else {
      rows = transaction.inodes().getAll(keys, LockMode.NONE);
    }
    ResolvedPath result = new ResolvedPath(path);
    Inode root = rows.get(InodePartitioning.ROOT_KEY);
    if (root == null) {
      throw new StoreException("The metadata store holds no namespace (no root inode): format it first");
    }
    rememberHint(root);
    result.set(0, root);
    for (int depth = 1; depth <= names.size(); depth++) {
      Inode directory = result.at(depth - 1);
      if (!directory.directory()) {
        break;
      }
      String name = names.get(depth - 1);
      InodeKey key = InodePartitioning.keyOf(directory, name);
      Inode row = keys.contains(key) ? rows.get(key)
          : transaction.inodes().get(key, LockMode.NONE).orElse(null);
      if (row == null) {
        hints.invalidate(directory.id(), name);
        break;
      }
      rememberHint(row);
      result.set(depth, row);
    }
    return result;
  }

  private void rememberHint(Inode row) {
    hints.put(row);
  }

  // ---- by-id locks ----

  private void acquiredById(LockRequest request, Inode row, boolean laterLocksTaken) throws StoreException {
    boolean locking = request.inodeMode() != LockMode.NONE;
    for (int again = 0; row == null && locking; again++) {
      if (transaction.inodes().getById(request.inodeId(), LockMode.NONE).isEmpty()) {
        break; // deleted: the operation answers for a missing inode
      }
      // A move (delete + insert of the row) committed while the locking read waited: it skipped the old row and
      // cannot see the new one. When no lock later in the global order was taken yet, lock the new row now;
      // otherwise (or when moves keep coming) re-run on the moved row.
      if (laterLocksTaken || again == MAX_RELOCKS_IN_PLACE) {
        throw new StalePathException("inode " + request.inodeId() + " moved while being locked");
      }
      row = transaction.inodes().getById(request.inodeId(), request.inodeMode()).orElse(null);
      cache.fileData.remove(request.inodeId()); // prefetched without the lock: read again on demand
      cache.fileBlocks.remove(request.inodeId());
    }
    cache.lockedById = row;
    if (row != null) {
      cache.noteLock(row.id(), request.inodeMode());
    }
  }

  /**
   * The directories above the inode locked by id, root first: verified in the lock round trip when the hints knew
   * them, else read now (nothing when no quota exists at all).
   */
  List<Inode> lockedFileAncestors() throws StoreException {
    if (fileAncestors != null) {
      return fileAncestors;
    }
    boolean any = anyQuota != null ? anyQuota.get() : transaction.quotas().any();
    hints.noteQuotasExist(any);
    if (!any) {
      fileAncestors = List.of(); // nothing to charge anywhere
      return fileAncestors;
    }
    List<Inode> upwards = new ArrayList<>();
    long id = cache.lockedById.parentId();
    while (true) {
      long wanted = id;
      Inode directory = transaction.inodes().getById(wanted, LockMode.NONE).orElseThrow(
          () -> new StalePathException("ancestor " + wanted + " of inode " + cache.lockedById.id() + " vanished"));
      rememberHint(directory);
      upwards.add(directory);
      if (directory.key().equals(InodePartitioning.ROOT_KEY)) {
        break;
      }
      if (upwards.size() > MAX_ANCESTOR_WALK) {
        throw new IllegalStateException("invariant: more than " + MAX_ANCESTOR_WALK + " ancestors above inode "
            + cache.lockedById.id() + ": a cycle");
      }
      id = directory.parentId();
    }
    Collections.reverse(upwards);
    fileAncestors = Collections.unmodifiableList(upwards);
    return fileAncestors;
  }

  // ---- prefetching ----

  private void prefetch(ReadBatch batch, PathLock lock, Map<FsPath, Prediction> predictions, boolean withXAttrs) {
    long targetId;
    boolean spreads;
    boolean directory;
    if (predictions != null) {
      Prediction prediction = predictions.get(lock.path());
      targetId = prediction.ids[lock.path().depth()];
      spreads = prediction.spreads[lock.path().depth()];
      directory = prediction.directories[lock.path().depth()];
    } else {
      Inode target = cache.resolved.get(lock.path()).target();
      targetId = target == null ? -1 : target.id();
      spreads = target != null && target.spreadsChildren();
      directory = target != null && target.directory();
    }
    if (targetId < 0) {
      return; // nothing known to prefetch: the operation reads what it needs on demand
    }
    // A file has no children and a directory no blocks: only what the target's kind can have is read (a prediction
    // that is wrong about the kind is wrong about the id too, and the operation runs again).
    if (lock.fileData() != PathLock.FileRead.NONE && !directory) {
      cache.prefetchFileData(batch, targetId, lock.fileData() == PathLock.FileRead.ROWS_AND_SMALL_DATA);
    }
    if (withXAttrs) {
      cache.xattrs.put(targetId, batch.xattrsOf(targetId));
    }
    if (lock.resolve() != PathLock.Resolve.PATH && directory) {
      LockMode mode = lock.resolve() == PathLock.Resolve.PATH_AND_ALL_CHILDREN ? lock.targetMode()
          : LockMode.NONE;
      ChildrenPage page = new ChildrenPage(targetId, lock.childrenAfter(), lock.childrenLimit(), mode);
      cache.childrenPages.put(page, spreads ? batch.spreadChildren(targetId, page.after(), page.limit(), mode)
          : batch.children(targetId, targetId, page.after(), page.limit(), mode));
    }
  }
}
