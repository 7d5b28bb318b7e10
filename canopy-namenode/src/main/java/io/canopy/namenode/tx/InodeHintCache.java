package io.canopy.namenode.tx;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.canopy.metadata.entity.Inode;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The namenode's inode hints (paper 002 s.III-3): (parent id, name) to the child's id and primary key, so that a
 * whole path's primary keys are known before reading it and it is read in one batched primary-key read. Only a
 * hint: every use is verified against the rows read, and a wrong hint is repaired. Bounded, least recently used
 * evicted first. The root is always known once read.
 */
public final class InodeHintCache {
  /**
   * What a hint says about one child: its id, its partition, whether it spreads its own children, and whether it has
   * a quota (so the quota rows an operation must lock are known before its path is read).
   */
  public record Hint(long id, long partitionId, boolean spreadsChildren, boolean hasQuota) {
    static Hint of(Inode inode) {
      return new Hint(inode.id(), inode.partitionId(), inode.spreadsChildren(), inode.hasQuota());
    }
  }

  private record Key(long parentId, String name) {
    Key {
      Objects.requireNonNull(name);
    }
  }

  private final Cache<Key, Hint> hints;
  private volatile Hint root;
  /** The largest quota epoch any transaction of this namenode read (-1: none yet); see {@link #quotaEpoch()}. */
  private final AtomicLong quotaEpoch = new AtomicLong(-1);
  /** Whether the last look said some directory has a quota (operations on files locked by id read their path then). */
  private volatile boolean quotasExist;

  public InodeHintCache(long maxEntries) {
    this.hints = CacheBuilder.newBuilder().maximumSize(maxEntries).build();
  }

  /** The hint for (parent, name), or null. */
  public Hint get(long parentId, String name) {
    return hints.getIfPresent(new Key(parentId, name));
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
    } else {
      hints.put(new Key(inode.parentId(), inode.name()), Hint.of(inode));
    }
  }

  public void invalidate(long parentId, String name) {
    hints.invalidate(new Key(parentId, name));
  }

  public long size() {
    return hints.size();
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
