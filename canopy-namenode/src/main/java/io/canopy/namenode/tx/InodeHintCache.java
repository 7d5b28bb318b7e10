package io.canopy.namenode.tx;

import io.canopy.metadata.entity.Inode;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The namenode's inode hints (docs/references.md [HopsFS-1M] s.III-D3): (parent id, name) to the child's id and primary
 * key, so that a whole path's primary keys are known before reading it and it is read in one batched primary-key read.
 * Only a hint: every use is verified against the rows read, and a wrong hint is repaired. The root is always known once
 * read.
 *
 * <p>Every path component of every call looks here (about ten lookups per call at the Spotify mix's depth), so a
 * lookup must cost a hash probe and nothing more: hints live in a {@link ConcurrentHashMap} and are evicted by the
 * second-chance (CLOCK) rule, a lookup only setting a flag on the hint it finds. Guava's LRU cache cost a queue
 * insertion per lookup and a segment lock per store: 12% of the namenode's on-CPU samples in the Spotify mix. Bounded:
 * past {@code maxEntries} a store evicts, in one pass of one thread at a time, hints not looked up since the last pass
 * until {@link #EVICTION_HEADROOM} of the bound is free again; stores racing with that pass may exceed the bound by
 * one hint each.
 */
public final class InodeHintCache {
  /** The share of the bound an eviction pass frees, so that passes are rare (one per this share of stores). */
  static final double EVICTION_HEADROOM = 1.0 / 16;

  /**
   * What a hint says about one child: its id, its partition, whether it spreads its own children, whether it has
   * a quota (so the quota rows an operation must lock are known before its path is read), and whether it is a
   * directory (so a delete or a listing prefetches children only for a directory, and file rows only for a file).
   * An inode never changes kind, so a hint whose id the row read confirms is right about it.
   */
  public record Hint(long id, long partitionId, boolean spreadsChildren, boolean hasQuota, boolean directory) {
    static Hint of(Inode inode) {
      return new Hint(inode.id(), inode.partitionId(), inode.spreadsChildren(), inode.hasQuota(), inode.directory());
    }

    // Explicit: a record's generated equals and hashCode run through method handles, on the per-call path.
    @Override
    public boolean equals(Object other) {
      return other instanceof Hint hint && hint.id == id && hint.partitionId == partitionId
          && hint.spreadsChildren == spreadsChildren && hint.hasQuota == hasQuota && hint.directory == directory;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(id) * 31 + Long.hashCode(partitionId);
    }
  }

  /** (parent id, name): explicit equals and hashCode, as this is the key of every lookup. */
  static final class Key {
    private final long parentId;
    private final String name;

    Key(long parentId, String name) {
      this.parentId = parentId;
      this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && key.parentId == parentId && key.name.equals(name);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(parentId) * 31 + name.hashCode();
    }
  }

  /** A stored hint and its second-chance flag (a racy plain field: a lost update only misjudges one eviction). */
  private static final class Entry {
    final Hint hint;
    boolean used;

    Entry(Hint hint) {
      this.hint = hint;
    }
  }

  private final ConcurrentHashMap<Key, Entry> hints = new ConcurrentHashMap<>();
  private final long maxEntries;
  /** Held by the one thread running an eviction pass; the others store without waiting. */
  private final ReentrantLock evicting = new ReentrantLock();
  /** Hints stored since start (the root's aside): a call on warm hints stores none. */
  private final LongAdder stores = new LongAdder();
  private volatile Hint root;
  /** The largest quota epoch any transaction of this namenode read (-1: none yet); see {@link #quotaEpoch()}. */
  private final AtomicLong quotaEpoch = new AtomicLong(-1);
  /** Whether the last look said some directory has a quota (operations on files locked by id read their path then). */
  private volatile boolean quotasExist;

  public InodeHintCache(long maxEntries) {
    if (maxEntries <= 0) {
      throw new IllegalArgumentException("the hint cache needs room for at least one hint, not " + maxEntries
          + " (canopy.namenode.hint-cache.size)");
    }
    this.maxEntries = maxEntries;
  }

  /** The hint for (parent, name), or null. */
  public Hint get(long parentId, String name) {
    Entry entry = hints.get(new Key(parentId, name));
    if (entry == null) {
      return null;
    }
    if (!entry.used) {
      entry.used = true; // written once per eviction pass, not on every lookup: no cache-line ping-pong
    }
    return entry.hint;
  }

  /** The root's hint, or null until a transaction read the root. */
  public Hint root() {
    return root;
  }

  /** Records what a read found: the inode is the child {@code inode.name()} of {@code inode.parentId()}. */
  public void put(Inode inode) {
    if (inode.parentId() == inode.id()) {
      throw new IllegalArgumentException("inode " + inode.id() + " is its own parent");
    }
    if (inode.key().equals(io.canopy.namenode.fs.InodePartitioning.ROOT_KEY)) {
      root = Hint.of(inode);
      return;
    }
    hints.put(new Key(inode.parentId(), inode.name()), new Entry(Hint.of(inode)));
    stores.increment();
    if (hints.mappingCount() > maxEntries) {
      evict();
    }
  }

  /**
   * One second-chance pass: hints looked up since the last pass lose their flag, the others go, until the headroom
   * is free. Two sweeps at most: after the first, every hint left has lost its flag.
   */
  private void evict() {
    if (!evicting.tryLock()) {
      return;
    }
    try {
      long target = maxEntries - Math.max(1, (long) (maxEntries * EVICTION_HEADROOM));
      for (int sweep = 0; sweep < 2 && hints.mappingCount() > target; sweep++) {
        Iterator<Map.Entry<Key, Entry>> iterator = hints.entrySet().iterator();
        while (iterator.hasNext() && hints.mappingCount() > target) {
          Entry entry = iterator.next().getValue();
          if (entry.used) {
            entry.used = false;
          } else {
            iterator.remove();
          }
        }
      }
    } finally {
      evicting.unlock();
    }
  }

  public void invalidate(long parentId, String name) {
    hints.remove(new Key(parentId, name));
  }

  public long size() {
    return hints.mappingCount();
  }

  /** How many hints were stored since start, the root's aside. */
  public long stores() {
    return stores.sum();
  }

  /**
   * A value of the namespace's quota epoch read before now, or -1 when none was read yet. The epoch only grows, so
   * an operation that takes this value before reading its path and finds the same value once its locks are held
   * knows that no quota directory was set above it, and no subtree moved between quota directories, meanwhile.
   */
  public long quotaEpoch() {
    return quotaEpoch.get();
  }

  /** Records an epoch value a transaction read (or committed). */
  public void noteQuotaEpoch(long epoch) {
    quotaEpoch.accumulateAndGet(epoch, Math::max);
  }

  /** Whether, as far as this namenode last saw, some directory has a quota. Only a guess about what to prefetch. */
  public boolean quotasExist() {
    return quotasExist;
  }

  public void noteQuotasExist(boolean exist) {
    quotasExist = exist;
  }
}
