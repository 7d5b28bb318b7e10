package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.ExtendedAttributeKey;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.fs.ModeBits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.ipc.RetriableException;

/**
 * One operation's view of the namespace inside its transaction: the paths it resolved, the locks it holds, what it
 * read with them, and the only way it may change inodes. Changing an inode that is not exclusively locked is an
 * invariant failure. Effects on the namenode's caches run only after commit.
 *
 * <p>Locking (docs/references.md [Design] s.6, [HopsFS-1M] Table I): when the hint cache knows every proper ancestor of
 * every path, the components, the locks (in path order) and the prefetched rows are read in <em>one</em> round trip,
 * and the hints are verified against the rows. Otherwise the paths are first resolved at read-committed (one batched
 * read of what the hints know, then one read per unknown component, repairing the hints), and the locks and prefetches
 * follow in one more round trip. A lock that finds a different row than expected means the namespace changed under us:
 * the operation re-runs ({@link StalePathException}).
 */
public final class TransactionContext {
  /**
   * A file's block-level rows, read together. Its replica rows come split: {@code replicas} are the good ones, the only
   * ones that count (live, copy sources, read locations), {@code corruptReplicas} those known to be corrupt; code that
   * removes or moves a block's replicas takes {@link #allReplicas()}.
   */
  public record FileData(List<Block> blocks, List<Replica> replicas, List<Replica> corruptReplicas,
      List<UcReplica> ucReplicas) {
    static FileData of(ReadBatch.FileRows rows) {
      List<Block> blocks = rows.blocks();
      List<Replica> replicaRows = rows.replicas();
      List<UcReplica> ucReplicas = rows.ucReplicas();
      List<Replica> good = new ArrayList<>(replicaRows.size());
      List<Replica> corrupt = new ArrayList<>(0);
      for (Replica replica : replicaRows) {
        (replica.corrupt() ? corrupt : good).add(replica);
      }
      return new FileData(blocks, List.copyOf(good), List.copyOf(corrupt), ucReplicas);
    }

    /** Every replica row of the file, good and corrupt. */
    public List<Replica> allReplicas() {
      if (corruptReplicas.isEmpty()) {
        return replicas;
      }
      List<Replica> all = new ArrayList<>(replicas);
      all.addAll(corruptReplicas);
      return all;
    }
  }

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

    Prediction(FsPath path) {
      this.path = path;
      this.ids = new long[path.depth() + 1];
      this.keys = new InodeKey[path.depth() + 1];
      this.spreads = new boolean[path.depth() + 1];
      this.quotas = new boolean[path.depth() + 1];
      this.directories = new boolean[path.depth() + 1];
    }

    /** Whether the hint this prediction took for {@code depth} says exactly what {@code row} says. */
    boolean confirmedBy(int depth, Inode row) {
      return ids[depth] == row.id() && keys[depth].partitionId() == row.partitionId()
          && spreads[depth] == row.spreadsChildren() && quotas[depth] == row.hasQuota()
          && directories[depth] == row.directory();
    }
  }

  record ChildrenPage(long directoryId, String after, int limit, LockMode mode) {
    // Explicit: the generated ones run through method handles.
    @Override
    public boolean equals(Object other) {
      return other instanceof ChildrenPage page && page.directoryId == directoryId && page.limit == limit
          && page.mode == mode && Objects.equals(page.after, after);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(directoryId) * 31 + Objects.hashCode(after);
    }
  }

  /** Directories whose children one subtree round trip reads at most. */
  static final int SUBTREE_SCANS_PER_ROUND_TRIP = 64;
  /**
   * The variable counting the changes of which quota rows a subtree is charged to (a quota set on a directory, a
   * move between quota directories); see {@link InodeHintCache#quotaEpoch()} and docs/design/008-quotas.md.
   */
  public static final String QUOTA_EPOCH = "quota.epoch";
  /** Ancestors read one by one when a file locked by id has no usable path: more than this is a cycle. */
  private static final int MAX_ANCESTOR_WALK = 10_000;

  private final Transaction transaction;
  private final InodeHintCache hints;
  /** The namenode's subtree rows, those this transaction holds, and the operation's name for a refusal. */
  private final SubtreeRows subtreeRows;
  private long heldSubtreeRows;
  private final String operation;
  private final Map<Long, LockMode> locks = new HashMap<>();
  private final Map<FsPath, ResolvedPath> resolved = new HashMap<>();
  private final Map<Long, ReadBatch.Result<FileData>> fileData = new HashMap<>();
  private final Map<ChildrenPage, ReadBatch.Result<List<Inode>>> childrenPages = new HashMap<>();
  private final Map<Long, ReadBatch.Result<List<ExtendedAttribute>>> xattrs = new HashMap<>();
  private final List<Runnable> afterCommit = new ArrayList<>();
  /** ACL entries read or written in this transaction, by inode id (empty: the inode has none). */
  private final Map<Long, List<InodeAclEntry>> acls = new HashMap<>();
  private ReadBatch.Result<Optional<Lease>> lease;
  private Inode lockedById;
  private LockRequest request = LockRequest.none();
  private final QuotaRows quotas;
  /** The quota epoch, read as the first statement of the first round trip when the namenode knew none yet. */
  private ReadBatch.Result<OptionalLong> firstEpochRead;
  private boolean firstEpochPending;
  /** For an inode locked by id with quota: whether any quota exists, and its ancestors once known. */
  private ReadBatch.Result<Boolean> anyQuota;
  private List<Inode> fileAncestors;

  TransactionContext(Transaction transaction, InodeHintCache hints, SubtreeRows subtreeRows, String operation) {
    this.transaction = transaction;
    this.hints = hints;
    this.subtreeRows = subtreeRows;
    this.operation = operation;
    this.quotas = new QuotaRows(transaction, hints);
  }

  void acquire(LockRequest request) throws StoreException {
    this.request = request;
    boolean pathQuota = request.quota() != LockRequest.QuotaLocks.NONE && !request.paths().isEmpty();
    Map<FsPath, Prediction> predictions = predict(request);
    ReadBatch batch = transaction.batch();
    TreeMap<FsPath, LockTarget> targets;
    ReadBatch.Result<Map<InodeKey, Inode>> unlocked = null;
    firstEpochPending = pathQuota && !quotas.epochKnown();
    if (predictions != null) {
      if (firstEpochPending) {
        firstEpochRead = batch.longVariable(QUOTA_EPOCH); // before any component is read
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
      unlocked = batch.inodes(new ArrayList<>(readCommitted), LockMode.READ_COMMITTED);
    } else {
      for (PathLock lock : request.paths()) {
        if (!resolved.containsKey(lock.path())) {
          resolved.put(lock.path(), resolve(lock.path()));
        }
      }
      targets = planFromResolved(request);
    }
    for (LockTarget target : targets.values()) {
      target.row = batch.inode(target.key, target.mode);
    }
    ReadBatch.Result<Optional<Inode>> byId = null;
    if (request.hasInode()) {
      // Paths and an inode by id are never requested together today; the id comes last in the global order.
      byId = batch.inodeById(request.inodeId(), request.inodeMode());
      if (request.inodeFileData()) {
        prefetchFileData(batch, request.inodeId());
      }
    }
    for (PathLock lock : request.paths()) {
      prefetch(batch, lock, predictions, request.xattrs());
    }
    if (request.leaseHolder() != null) {
      lease = batch.lease(request.leaseHolder());
    }
    // Quota rows come after every inode (the global lock order), in inode id order.
    Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> quotaReads = new HashMap<>();
    if (pathQuota && request.quota() == LockRequest.QuotaLocks.WITH_LOCKS) {
      quotaReads = quotas.addLocks(batch, predictions != null ? predictedQuotaIds(predictions) : resolvedQuotaIds());
    }
    ReadBatch.Result<OptionalLong> lastEpochRead = pathQuota ? batch.longVariable(QUOTA_EPOCH) : null;
    Prediction chain = null;
    ReadBatch.Result<Map<InodeKey, Inode>> chainRows = null;
    if (request.hasInode() && request.quota() != LockRequest.QuotaLocks.NONE) {
      anyQuota = batch.anyQuota();
      chain = hints.quotasExist() ? predictChain(request.quotaHintPath()) : null;
      if (chain != null) {
        chainRows = batch.inodes(List.of(chain.keys), LockMode.READ_COMMITTED); // after the file's lock
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
          quotas.requireLocked(resolved.get(lock.path()).above(), lock.path());
        }
      }
    }
    if (anyQuota != null) {
      hints.noteQuotasExist(anyQuota.get());
      if (chain != null) {
        fileAncestors = verifiedChain(chain, chainRows.get());
      }
    }
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
      for (Inode inode : resolved.get(lock.path()).above()) {
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
  private String changedAncestor() throws StoreException {
    List<InodeKey> keys = new ArrayList<>();
    List<Inode> used = new ArrayList<>();
    for (PathLock lock : request.paths()) {
      List<Inode> above = resolved.get(lock.path()).above();
      for (int depth = 0; depth < above.size(); depth++) {
        keys.add(depth == 0 ? InodePartitioning.ROOT_KEY
            : InodePartitioning.keyOf(above.get(depth - 1), lock.path().components().get(depth - 1)));
        used.add(above.get(depth));
      }
    }
    Map<InodeKey, Inode> now = transaction.inodes().getAll(keys, LockMode.READ_COMMITTED);
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
    Prediction prediction = new Prediction(parentPath);
    prediction.ids[0] = root.id();
    prediction.keys[0] = InodePartitioning.ROOT_KEY;
    prediction.spreads[0] = root.spreadsChildren();
    prediction.quotas[0] = root.hasQuota();
    prediction.directories[0] = true;
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
    if (lockedById == null) {
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
    if (ancestors.get(ancestors.size() - 1).id() != lockedById.parentId()) {
      return null; // the file was moved: its client still names the old path
    }
    quotas.requireLocked(ancestors, "inode " + lockedById.id());
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
      Prediction prediction = new Prediction(path);
      prediction.ids[0] = root.id();
      prediction.keys[0] = InodePartitioning.ROOT_KEY;
      prediction.spreads[0] = root.spreadsChildren();
      prediction.quotas[0] = root.hasQuota();
      prediction.directories[0] = true;
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
      resolved.put(prediction.path, path);
    }
    for (LockTarget target : targets.values()) {
      target.row.get().ifPresent(row -> locks.merge(row.id(), target.mode, TransactionContext::stronger));
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
      ResolvedPath path = resolved.get(lock.path());
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
    if (mode == LockMode.READ_COMMITTED) {
      return;
    }
    LockTarget target = targets.computeIfAbsent(path.ancestor(depth), p -> new LockTarget(depth, key, expectedId,
        mode));
    target.mode = stronger(target.mode, mode); // one lock per row, at the strongest mode any path needs
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
      locks.merge(row.get().id(), target.mode, TransactionContext::stronger);
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
      firstEpochRead = batch.longVariable(QUOTA_EPOCH);
      ReadBatch.Result<Map<InodeKey, Inode>> read = batch.inodes(keys, LockMode.READ_COMMITTED);
      batch.execute();
      firstEpochPending = false;
      rows = read.get();
    } else {
      rows = transaction.inodes().getAll(keys, LockMode.READ_COMMITTED);
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
          : transaction.inodes().get(key, LockMode.READ_COMMITTED).orElse(null);
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

  /**
   * How many times a by-id lock that found its row replaced by a move is taken again in place before the operation
   * re-runs. A writer's calls name its file by id; a client renaming that file in a loop holds its lock most of the
   * time, and every re-run would wait behind the next rename and find the row replaced again.
   */
  static final int MAX_RELOCKS_IN_PLACE = 3;

  private void acquiredById(LockRequest request, Inode row, boolean laterLocksTaken) throws StoreException {
    boolean locking = request.inodeMode() != LockMode.READ_COMMITTED;
    for (int again = 0; row == null && locking; again++) {
      if (transaction.inodes().getById(request.inodeId(), LockMode.READ_COMMITTED).isEmpty()) {
        break; // deleted: the operation answers for a missing inode
      }
      // A move (delete + insert of the row) committed while the locking read waited: it skipped the old row and
      // cannot see the new one. When no lock later in the global order was taken yet, lock the new row now;
      // otherwise (or when moves keep coming) re-run on the moved row.
      if (laterLocksTaken || again == MAX_RELOCKS_IN_PLACE) {
        throw new StalePathException("inode " + request.inodeId() + " moved while being locked");
      }
      row = transaction.inodes().getById(request.inodeId(), request.inodeMode()).orElse(null);
      fileData.remove(request.inodeId()); // prefetched without the lock: read again on demand
    }
    lockedById = row;
    if (row != null) {
      locks.merge(row.id(), request.inodeMode(), TransactionContext::stronger);
    }
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
      Inode target = resolved.get(lock.path()).target();
      targetId = target == null ? -1 : target.id();
      spreads = target != null && target.spreadsChildren();
      directory = target != null && target.directory();
    }
    if (targetId < 0) {
      return; // nothing known to prefetch: the operation reads what it needs on demand
    }
    // A file has no children and a directory no blocks: only what the target's kind can have is read (a prediction
    // that is wrong about the kind is wrong about the id too, and the operation runs again).
    if (lock.fileData() && !directory) {
      prefetchFileData(batch, targetId);
    }
    if (withXAttrs) {
      xattrs.put(targetId, batch.xattrsOf(targetId));
    }
    if (lock.resolve() != PathLock.Resolve.PATH && directory) {
      LockMode mode = lock.resolve() == PathLock.Resolve.PATH_AND_ALL_CHILDREN ? lock.targetMode()
          : LockMode.READ_COMMITTED;
      ChildrenPage page = new ChildrenPage(targetId, lock.childrenAfter(), lock.childrenLimit(), mode);
      childrenPages.put(page, spreads ? batch.spreadChildren(targetId, page.after(), page.limit(), mode)
          : batch.children(targetId, targetId, page.after(), page.limit(), mode));
    }
  }

  private void prefetchFileData(ReadBatch batch, long inodeId) {
    ReadBatch.Result<ReadBatch.FileRows> rows = batch.fileRows(inodeId);
    FileData[] split = new FileData[1]; // split into good and corrupt replicas once, however often it is asked
    fileData.put(inodeId, () -> split[0] != null ? split[0] : (split[0] = FileData.of(rows.get())));
  }

  // ---- what operations use ----

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

  /** The lease read with the locks ({@link LockRequest#withLease}), or empty when the holder has none. */
  public Optional<Lease> lease() {
    if (lease == null) {
      throw new IllegalStateException("operation did not ask for a lease in its lock request");
    }
    return lease.get();
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
    locks.put(child.id(), LockMode.EXCLUSIVE);
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
    if (ModeBits.hasAcl(inode.permission()) || !acls.getOrDefault(inode.id(), List.of()).isEmpty()) {
      transaction.acls().deleteAll(inode.id());
      acls.put(inode.id(), List.of());
    }
    locks.put(inode.id(), LockMode.EXCLUSIVE);
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
      if (ModeBits.hasAcl(inode.permission()) && !acls.containsKey(inode.id()) && !missing.contains(inode.id())) {
        missing.add(inode.id());
      }
    }
    if (!missing.isEmpty()) {
      Map<Long, List<InodeAclEntry>> read = transaction.acls().ofInodes(missing);
      for (Long id : missing) {
        acls.put(id, read.getOrDefault(id, List.of()));
      }
    }
    Map<Long, List<InodeAclEntry>> result = new HashMap<>();
    for (Inode inode : inodes) {
      if (ModeBits.hasAcl(inode.permission())) {
        result.put(inode.id(), acls.get(inode.id()));
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
    acls.put(inode.id(), List.copyOf(entries));
  }

  /**
   * A directory's children in name order. Children read with a lock are locked top-down (consistent with the
   * global order), so the directory must already hold at least that mode. A page read with the locks
   * ({@link PathLock#withChildren}) costs no further round trip.
   */
  public List<Inode> children(Inode directory, String startAfter, int limit, LockMode mode) throws StoreException {
    if (mode != LockMode.READ_COMMITTED) {
      requireLock(directory, mode, "locking the children");
    }
    ReadBatch.Result<List<Inode>> page = childrenPages.remove(new ChildrenPage(directory.id(), startAfter, limit,
        mode));
    List<Inode> children;
    if (page != null) {
      children = page.get();
    } else if (directory.spreadsChildren()) {
      children = transaction.inodes().spreadChildren(directory.id(), startAfter, limit, mode);
    } else {
      children = transaction.inodes().children(directory.id(), directory.id(), startAfter, limit, mode);
    }
    if (mode != LockMode.READ_COMMITTED) {
      for (Inode child : children) {
        locks.merge(child.id(), mode, TransactionContext::stronger);
      }
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
    List<Inode> all = new ArrayList<>();
    all.add(root);
    if (!root.directory()) {
      return all;
    }
    if (mode != LockMode.READ_COMMITTED) {
      requireLock(root, mode, "locking a subtree");
    }
    holdSubtreeRows(root, 1);
    int limit = PathLock.SUBTREE_SCAN_BATCH;
    // directories whose children are still to read, with the name to continue after
    Map<Inode, String> level = new LinkedHashMap<>();
    ReadBatch.Result<List<Inode>> first = childrenPages.remove(new ChildrenPage(root.id(), null, limit, mode));
    if (first != null) {
      takePage(all, level, root, first.get(), limit, mode);
      holdSubtreeRows(root, all.size() - 1);
    } else {
      level.put(root, null);
    }
    while (!level.isEmpty()) {
      Map<Inode, String> next = new LinkedHashMap<>();
      List<Map.Entry<Inode, String>> directories = new ArrayList<>(level.entrySet());
      // a level is read in round trips of at most SUBTREE_SCANS_PER_ROUND_TRIP directories: bounded statements
      // (and parameters) per pipeline however wide the tree is
      for (int from = 0; from < directories.size(); from += SUBTREE_SCANS_PER_ROUND_TRIP) {
        int before = all.size();
        ReadBatch batch = transaction.batch();
        Map<Inode, ReadBatch.Result<List<Inode>>> pages = new LinkedHashMap<>();
        for (Map.Entry<Inode, String> entry : directories.subList(from,
            Math.min(directories.size(), from + SUBTREE_SCANS_PER_ROUND_TRIP))) {
          Inode directory = entry.getKey();
          pages.put(directory, directory.spreadsChildren()
              ? batch.spreadChildren(directory.id(), entry.getValue(), limit, mode)
              : batch.children(directory.id(), directory.id(), entry.getValue(), limit, mode));
        }
        batch.execute();
        for (Map.Entry<Inode, ReadBatch.Result<List<Inode>>> entry : pages.entrySet()) {
          takePage(all, next, entry.getKey(), entry.getValue().get(), limit, mode);
        }
        holdSubtreeRows(root, all.size() - before);
      }
      level = next;
    }
    return all;
  }

  /**
   * Counts {@code rows} more that this transaction holds in memory for the subtree under {@code root} (its inodes as
   * they are read, the block-level rows of its files before a delete reads them) against the namenode's
   * {@link NameNodeConfig#SUBTREE_MAX_ROWS}: more than it on its own is refused ({@link SubtreeTooLargeException});
   * more than what other operations leave answers HDFS's RetriableException, as they give theirs back soon.
   */
  public void holdSubtreeRows(Inode root, long rows) throws IOException {
    if (heldSubtreeRows + rows > subtreeRows.max()) {
      throw new SubtreeTooLargeException(operation, pathOf(root), subtreeRows.max());
    }
    if (!subtreeRows.tryTake(rows)) {
      throw new RetriableException(operation + " " + pathOf(root) + ": other operations hold "
          + (subtreeRows.held() - heldSubtreeRows) + " rows of subtrees, and with this one's "
          + (heldSubtreeRows + rows) + " the namenode would hold more than " + subtreeRows.max() + " ("
          + NameNodeConfig.SUBTREE_MAX_ROWS + "); try again shortly");
    }
    heldSubtreeRows += rows;
  }

  /** Gives back the subtree rows this transaction held: it ended, and what it read is garbage. */
  void releaseSubtreeRows() {
    subtreeRows.give(heldSubtreeRows);
    heldSubtreeRows = 0;
  }

  /** The path this operation resolved {@code inode} at, for messages; its id when it resolved none. */
  private String pathOf(Inode inode) {
    for (ResolvedPath path : resolved.values()) {
      for (int depth = path.existingCount() - 1; depth >= 0; depth--) {
        if (path.at(depth).id() == inode.id()) {
          return path.path().ancestor(depth).toString();
        }
      }
    }
    return "inode " + inode.id() + " (" + inode.name() + ")";
  }

  private void takePage(List<Inode> all, Map<Inode, String> next, Inode directory, List<Inode> page, int limit,
      LockMode mode) {
    for (Inode child : page) {
      all.add(child);
      if (mode != LockMode.READ_COMMITTED) {
        locks.merge(child.id(), mode, TransactionContext::stronger);
      }
      if (child.directory()) {
        next.put(child, null);
      }
    }
    if (page.size() == limit) {
      next.put(directory, page.get(page.size() - 1).name()); // more children: continue after the last one
    }
  }

  /**
   * The block-level rows of a file (blocks, replicas, replicas under construction): those read with its lock when
   * prefetched, else read now in one round trip. The file must hold at least {@code needed}.
   */
  public FileData readFileData(Inode file, LockMode needed) throws StoreException {
    requireLock(file, needed, "file data access");
    ReadBatch.Result<FileData> prefetched = fileData.get(file.id());
    if (prefetched == null) {
      ReadBatch batch = transaction.batch();
      prefetchFileData(batch, file.id());
      batch.execute();
      prefetched = fileData.get(file.id());
    }
    return prefetched.get();
  }

  /**
   * The block-level tables of a file (blocks, replicas, leases), for writes and for reads not covered by
   * {@link #readFileData}: locked implicitly through the file's inode, so the file must hold at least
   * {@code needed}.
   */
  public Transaction fileData(Inode file, LockMode needed) {
    requireLock(file, needed, "file data access");
    return transaction;
  }

  /**
   * An inode's extended attributes: those read with its lock ({@link LockRequest#withXAttrs}), else read now. A read
   * outside the lock round trip of a read-only operation (which holds no lock) also re-reads the inode in the same
   * round trip, and re-runs the operation when it was moved or deleted meanwhile: the attributes answered always
   * belong to the inode the operation resolved.
   */
  public List<ExtendedAttribute> xattrs(Inode inode) throws StoreException {
    ReadBatch.Result<List<ExtendedAttribute>> prefetched = xattrs.get(inode.id());
    if (prefetched != null) {
      return prefetched.get();
    }
    ReadBatch batch = transaction.batch();
    ReadBatch.Result<List<ExtendedAttribute>> read = batch.xattrsOf(inode.id());
    boolean unlocked = lockOf(inode) == LockMode.READ_COMMITTED;
    ReadBatch.Result<Optional<Inode>> again = unlocked ? batch.inodeById(inode.id(), LockMode.READ_COMMITTED) : null;
    batch.execute();
    if (again != null && !again.get().map(row -> row.key().equals(inode.key())).orElse(false)) {
      throw new StalePathException("inode " + inode.id() + " ('" + inode.name() + "') moved or was deleted while "
          + "its extended attributes were read");
    }
    xattrs.put(inode.id(), read);
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
    xattrs.remove(inode.id()); // what was read is no longer the inode's state
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
    xattrs.remove(inode.id());
  }

  /** Removes every extended attribute of exclusively locked inodes that are being deleted, without reading them. */
  public void deleteXAttrsOf(List<Inode> inodes) {
    requireWritable("deleting extended attributes");
    List<Long> ids = new ArrayList<>(inodes.size());
    for (Inode inode : inodes) {
      requireLock(inode, LockMode.EXCLUSIVE, "deleting the extended attributes");
      ids.add(inode.id());
      xattrs.remove(inode.id());
    }
    if (!ids.isEmpty()) {
      transaction.xattrs().deleteOfInodes(ids);
    }
  }

  /** Cluster-wide tables that are not under the inode hierarchy (datanodes, storages, invalidations, leases). */
  public Transaction cluster() {
    return transaction;
  }

  // ---- quotas ----

  /**
   * The existing directories above {@code inode}, root first: the target of a declared path (or, for a path whose
   * target does not exist yet, what will be created there), or the inode locked by id. These are the directories whose
   * quota usage a change of {@code inode} is charged to. For an inode locked by id, they come from the lock round
   * trip when the request declared {@link LockRequest#withQuota(FsPath)} and the hints knew the path; otherwise they
   * are read now (nothing when no quota exists at all, else one round trip per ancestor). The inode's lock keeps
   * them valid: whatever changes the quota directories above a subtree locks the whole subtree first.
   */
  public List<Inode> ancestorsOf(Inode inode) throws StoreException {
    for (ResolvedPath path : resolved.values()) {
      Inode target = path.target();
      if (target != null && target.id() == inode.id()) {
        return path.above();
      }
    }
    if (lockedById != null && lockedById.id() == inode.id()) {
      return lockedFileAncestors();
    }
    throw new IllegalStateException("invariant: inode " + inode.id() + " ('" + inode.name() + "') is neither the "
        + "target of a declared path nor the inode locked by id");
  }

  private List<Inode> lockedFileAncestors() throws StoreException {
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
    long id = lockedById.parentId();
    while (true) {
      long wanted = id;
      Inode directory = transaction.inodes().getById(wanted, LockMode.READ_COMMITTED).orElseThrow(
          () -> new StalePathException("ancestor " + wanted + " of inode " + lockedById.id() + " vanished"));
      rememberHint(directory);
      upwards.add(directory);
      if (directory.key().equals(InodePartitioning.ROOT_KEY)) {
        break;
      }
      if (upwards.size() > MAX_ANCESTOR_WALK) {
        throw new IllegalStateException("invariant: more than " + MAX_ANCESTOR_WALK + " ancestors above inode "
            + lockedById.id() + ": a cycle");
      }
      id = directory.parentId();
    }
    Collections.reverse(upwards);
    fileAncestors = Collections.unmodifiableList(upwards);
    return fileAncestors;
  }

  /**
   * Locks exclusively, in one round trip and in inode id order, the quota rows of those {@code directories} with a
   * quota whose rows this transaction does not hold yet (after every inode lock: the global order), with the quota
   * epoch check when the lock round trip did not do it. A directory whose row is gone (its quota was cleared
   * meanwhile) makes the operation re-run. Operations lock every row they need in one call.
   */
  public void lockQuotas(Collection<Inode> directories) throws StoreException {
    requireWritable("locking quota rows");
    quotas.lock(directories, !quotas.epochChecked() && !request.paths().isEmpty(), this::changedAncestor);
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

  private static LockMode stronger(LockMode a, LockMode b) {
    return a.covers(b) ? a : b;
  }
}
