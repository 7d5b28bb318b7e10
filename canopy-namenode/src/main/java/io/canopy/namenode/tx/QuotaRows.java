package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The quota side of one transaction (docs/design/008-quotas.md): the usage rows it holds locked, and the quota epoch
 * check that tells whether the paths it read may have changed quota directories before its locks were held.
 * {@link TransactionContext} drives it while taking locks and exposes it to operations.
 */
final class QuotaRows {
  /**
   * Describes the first ancestor of the operation's paths that is no longer the row the operation read (moved, or its
   * quota flag changed), reading them again; null when none changed.
   */
  interface AncestorCheck {
    String firstChanged() throws StoreException;
  }

  private final Transaction transaction;
  private final InodeHintCache hints;
  /** Rows locked exclusively by this transaction, by directory id; directories without a row are in locked only. */
  private final Map<Long, DirectoryQuota> rows = new HashMap<>();
  private final Set<Long> locked = new HashSet<>();
  /** The epoch as this attempt found it before reading any path (-1: unknown until read). */
  private long epochBefore;
  private boolean epochChecked;

  QuotaRows(Transaction transaction, InodeHintCache hints) {
    this.transaction = transaction;
    this.hints = hints;
    this.epochBefore = hints.quotaEpoch();
  }

  boolean epochKnown() {
    return epochBefore >= 0;
  }

  boolean epochChecked() {
    return epochChecked;
  }

  /** The epoch read in the attempt's first round trip, before any path component, when the namenode knew none. */
  void epochRead(OptionalLong epoch) {
    epochBefore = epoch.orElse(0);
  }

  /** Adds the exclusive locking reads of the rows of {@code ids} to {@code batch}, in id order. */
  Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> addLocks(ReadBatch batch, Collection<Long> ids) {
    Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> reads = new HashMap<>();
    for (long id : new TreeSet<>(ids)) {
      reads.put(id, batch.quota(id, LockMode.EXCLUSIVE));
    }
    return reads;
  }

  /** Records the rows a batch locked. */
  void recordLocks(Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> reads) {
    for (Map.Entry<Long, ReadBatch.Result<Optional<DirectoryQuota>>> read : reads.entrySet()) {
      locked.add(read.getKey());
      read.getValue().get().ifPresent(row -> rows.put(row.inodeId(), row));
    }
  }

  /**
   * Every directory of {@code directories} with a quota must have its row locked and present: a row the hints did
   * not predict, or one removed since the directory was read (its quota cleared), makes the operation re-run.
   */
  void requireLocked(List<Inode> directories, Object where) throws StalePathException {
    for (Inode directory : directories) {
      if (!directory.hasQuota()) {
        continue;
      }
      if (!locked.contains(directory.id())) {
        throw new StalePathException("directory " + directory.id() + " ('" + directory.name() + "') above " + where
            + " has a quota the hints did not know of");
      }
      if (!rows.containsKey(directory.id())) {
        throw new StalePathException("the quota of directory " + directory.id() + " ('" + directory.name()
            + "') above " + where + " was cleared while the operation ran");
      }
    }
  }

  /**
   * The epoch read once the locks are held should be the one the attempt started with. When it is not, a quota was
   * set on some directory, or some subtree moved between quota directories, while the paths were read: the
   * operation's ancestors are read again (under the locks now held, nothing that matters can change them any more)
   * and it goes on if they are the same rows with the same quota flags, else it re-runs on the new namespace. So a
   * quota change elsewhere costs operations in flight a round trip, never a re-run.
   */
  void checkEpoch(long epochNow, AncestorCheck ancestors) throws StoreException {
    hints.noteQuotaEpoch(epochNow);
    if (epochNow != epochBefore) {
      String changed = ancestors.firstChanged();
      if (changed != null) {
        throw new StalePathException("quota directories changed while the operation read its paths (epoch "
            + epochBefore + ", now " + epochNow + "): " + changed);
      }
    }
    epochChecked = true;
  }

  /**
   * Locks, in one round trip and in id order, the rows of those {@code directories} with a quota that this
   * transaction does not hold yet, with the epoch check when {@code epochDue}.
   */
  void lock(Collection<Inode> directories, boolean epochDue, AncestorCheck ancestors) throws StoreException {
    Set<Long> ids = new TreeSet<>();
    for (Inode directory : directories) {
      if (directory.hasQuota() && !locked.contains(directory.id())) {
        ids.add(directory.id());
      }
    }
    if (ids.isEmpty() && !epochDue) {
      return;
    }
    ReadBatch batch = transaction.batch();
    Map<Long, ReadBatch.Result<Optional<DirectoryQuota>>> reads = addLocks(batch, ids);
    ReadBatch.Result<OptionalLong> epoch = epochDue ? batch.longVariable(TransactionContext.QUOTA_EPOCH) : null;
    batch.execute();
    recordLocks(reads);
    if (epoch != null) {
      checkEpoch(epoch.get().orElse(0), ancestors);
    }
    requireLocked(List.copyOf(directories), "the operation's paths");
  }

  boolean isLocked(long directoryId) {
    return locked.contains(directoryId);
  }

  /** The locked row of a directory, or null when it has none. */
  DirectoryQuota row(long directoryId) {
    return rows.get(directoryId);
  }

  /** A directory's own row read at {@code mode} (locked rows are remembered). */
  Optional<DirectoryQuota> read(long directoryId, LockMode mode) throws StoreException {
    if (locked.contains(directoryId)) {
      return Optional.ofNullable(rows.get(directoryId));
    }
    Optional<DirectoryQuota> row = transaction.quotas().get(directoryId, mode);
    if (mode == LockMode.EXCLUSIVE && !transaction.readOnly()) {
      locked.add(directoryId);
      row.ifPresent(r -> rows.put(r.inodeId(), r));
    }
    return row;
  }

  /** Rewrites a row this transaction holds locked. */
  void update(DirectoryQuota quota) {
    if (!rows.containsKey(quota.inodeId())) {
      throw new IllegalStateException("invariant: update of the quota row of directory " + quota.inodeId()
          + " that this transaction does not hold locked");
    }
    rows.put(quota.inodeId(), quota);
    transaction.quotas().update(quota);
  }

  /** Inserts the row of a directory that has none, or replaces the limits of the locked one. */
  void put(DirectoryQuota quota) {
    if (rows.containsKey(quota.inodeId())) {
      transaction.quotas().update(quota);
    } else {
      transaction.quotas().insert(quota);
      locked.add(quota.inodeId());
    }
    rows.put(quota.inodeId(), quota);
  }

  void remove(long directoryId) {
    transaction.quotas().delete(directoryId);
    rows.remove(directoryId);
    locked.add(directoryId);
  }

  /** Increments the epoch (locking its row, after every other lock) and returns the new value. */
  long bumpEpoch() throws StoreException {
    long next = transaction.variables().getLong(TransactionContext.QUOTA_EPOCH, LockMode.EXCLUSIVE).orElse(0) + 1;
    transaction.variables().putLong(TransactionContext.QUOTA_EPOCH, next);
    return next;
  }
}
