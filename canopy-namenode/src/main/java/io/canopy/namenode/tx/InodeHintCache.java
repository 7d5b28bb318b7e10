package io.canopy.namenode.tx;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.util.Objects;

/**
 * The namenode's inode hints (paper 002 s.III-3): (parent id, name) to child id, so that a whole path's primary
 * keys are known before reading it and it is read in one batched primary-key read. Only a hint: every use is
 * verified against the rows read, and a wrong hint is repaired. Bounded, least recently used evicted first.
 */
public final class InodeHintCache {
  private record Key(long parentId, String name) {
    Key {
      Objects.requireNonNull(name);
    }
  }

  private final Cache<Key, Long> hints;

  public InodeHintCache(long maxEntries) {
    this.hints = CacheBuilder.newBuilder().maximumSize(maxEntries).build();
  }

  /** The child id hinted for (parent, name), or -1. */
  public long get(long parentId, String name) {
    Long id = hints.getIfPresent(new Key(parentId, name));
    return id == null ? -1 : id;
  }

  public void put(long parentId, String name, long childId) {
    hints.put(new Key(parentId, name), childId);
  }

  public void invalidate(long parentId, String name) {
    hints.invalidate(new Key(parentId, name));
  }

  public long size() {
    return hints.size();
  }
}
