package io.canopy.namenode.tx;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.LockMode;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A namenode-local queue in front of the row locks of an engine that refuses a held lock at once instead of queueing
 * the request (Ignite 3's wait-die, design 020). Without it, the operations of one namenode that want the same row
 * (creates in one directory, each locking it exclusively) race for it in the database: the younger loses and re-runs,
 * and since a re-run begins a younger transaction it loses again, until its budget is spent. Here they queue, first
 * come first served, for exactly the rows they are about to lock in the database, and reach the database one at a
 * time; operations of other namenodes still meet in the database (and calls naming one inode by path and by id, see
 * {@link Key}).
 *
 * <p>A transaction takes its queue locks in one call, in one total order of the keys, before any of its row locks,
 * and keeps them until it ends; it never waits here while holding a database lock, so the queue adds no deadlock.
 * Every wait is bounded ({@link #waitMs}): a request that waited that long is refused as the database would refuse it
 * ({@link LockConflictException}), and the transaction runner re-runs the operation as for a refused row lock. An
 * engine that queues lock requests itself (PostgreSQL) has no use for this: {@link #NONE}.
 */
final class LocalLockQueue {
  /** The queue of an engine that queues lock requests itself: holding its locks takes nothing. */
  static final LocalLockQueue NONE = new LocalLockQueue(0, false);

  /** How long a transaction waits for the queue's locks before it is refused, unless configured. */
  static final long DEFAULT_WAIT_MS = 10_000;

  /**
   * A row the queue locks: an inode by its key or by its id, or a directory's quota row. An inode locked by id and the
   * same inode locked by path are two keys (its key is not known before the lock): such calls meet in the database.
   */
  record Key(int kind, long partitionId, long parentId, String name, long id) {
    private static final int INODE = 0;
    private static final int INODE_BY_ID = 1;
    private static final int QUOTA = 2;
    static final Comparator<Key> ORDER = Comparator.comparingInt(Key::kind).thenComparingLong(Key::partitionId)
        .thenComparingLong(Key::parentId).thenComparing(Key::name).thenComparingLong(Key::id);

    static Key of(io.canopy.metadata.entity.InodeKey key) {
      return new Key(INODE, key.partitionId(), key.parentId(), key.name(), 0);
    }

    static Key byId(long inodeId) {
      return new Key(INODE_BY_ID, 0, 0, "", inodeId);
    }

    /** The quota row of directory {@code inodeId}. */
    static Key quota(long inodeId) {
      return new Key(QUOTA, 0, 0, "", inodeId);
    }

    String describe() {
      return switch (kind) {
        case INODE -> "the inode named '" + name + "' in directory " + parentId;
        case INODE_BY_ID -> "inode " + id;
        default -> "the quota row of directory " + id;
      };
    }
  }

  /** One key's lock and how many transactions hold or wait for it (the entry goes when none does). */
  private static final class Entry {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    int users;
  }

  private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
  private final long waitMs;
  private final boolean enabled;

  LocalLockQueue(long waitMs) {
    this(waitMs, true);
    if (waitMs <= 0) {
      throw new IllegalArgumentException("local lock wait must be positive, got " + waitMs);
    }
  }

  private LocalLockQueue(long waitMs, boolean enabled) {
    this.waitMs = waitMs;
    this.enabled = enabled;
  }

  /** The locks of one transaction: taken by {@link Held#lock}, all given back when it closes. */
  Held open() {
    return new Held();
  }

  /** Keys with a lock held or waited for right now (for tests: the queue forgets keys nobody uses). */
  int size() {
    return entries.size();
  }

  /** The queue locks of one transaction. Used by the thread that runs it. */
  final class Held implements AutoCloseable {
    private final List<Lock> locks = new ArrayList<>();
    private final List<Key> keys = new ArrayList<>();
    private boolean taken;

    /** Whether this queue locks anything (not on an engine that queues lock requests itself). */
    boolean active() {
      return enabled;
    }

    /**
     * Takes the queue's locks on {@code wanted} (a shared mode as a read lock, an exclusive one as a write lock; none
     * skipped) in the queue's total order, waiting at most {@link #waitMs} for each. Once per transaction: a second
     * call could break the order.
     */
    void lock(Map<Key, LockMode> wanted) throws LockConflictException, InterruptedIOException {
      if (!enabled) {
        return;
      }
      if (taken) {
        throw new IllegalStateException("invariant: a transaction takes its local queue locks in one call");
      }
      taken = true;
      TreeMap<Key, LockMode> ordered = new TreeMap<>(Key.ORDER);
      ordered.putAll(wanted);
      for (Map.Entry<Key, LockMode> want : ordered.entrySet()) {
        if (want.getValue() == LockMode.NONE) {
          continue;
        }
        Key key = want.getKey();
        Entry entry = entries.compute(key, (k, existing) -> {
          Entry e = existing != null ? existing : new Entry();
          e.users++;
          return e;
        });
        keys.add(key);
        Lock lock = want.getValue() == LockMode.EXCLUSIVE ? entry.lock.writeLock() : entry.lock.readLock();
        boolean got;
        try {
          got = lock.tryLock(waitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for this namenode's lock on " + key.describe());
        }
        if (!got) {
          throw new LockConflictException("waited " + waitMs + " ms for this namenode's other operations on "
              + key.describe(), null);
        }
        locks.add(lock);
      }
    }

    /** Gives back every lock taken and forgets the keys nobody else holds or waits for. */
    @Override
    public void close() {
      RuntimeException failed = null;
      for (int i = locks.size() - 1; i >= 0; i--) {
        try {
          locks.get(i).unlock();
        } catch (RuntimeException e) { // a lock closed on another thread than its own: give back the others anyway
          failed = failed == null ? e : failed;
        }
      }
      locks.clear();
      for (Key key : keys) {
        entries.computeIfPresent(key, (k, e) -> --e.users == 0 ? null : e);
      }
      keys.clear();
      if (failed != null) {
        throw failed;
      }
    }
  }

}
