package io.canopy.namenode.tx;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.canopy.metadata.entity.Inode;
import java.util.Objects;

/**
 * The namenode's inode hints (paper 002 s.III-3): (parent id, name) to the child's id and primary key, so that a
 * whole path's primary keys are known before reading it and it is read in one batched primary-key read. Only a
 * hint: every use is verified against the rows read, and a wrong hint is repaired. Bounded, least recently used
 * evicted first. The root is always known once read.
 */
public final class InodeHintCache {
  /** What a hint says about one child: its id, its partition, and whether it spreads its own children. */
  public record Hint(long id, long partitionId, boolean spreadsChildren) {
    static Hint of(Inode inode) {
      return new Hint(inode.id(), inode.partitionId(), inode.spreadsChildren());
    }
  }

  private record Key(long parentId, String name) {
    Key {
      Objects.requireNonNull(name);
    }
  }

  private final Cache<Key, Hint> hints;
  private volatile Hint root;

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
}
