package io.canopy.namenode.replication;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Excess replicas the leader removed recently (their deletion is queued for, or already on its way to, the
 * datanode). A stale full block report can record such a replica again before the datanode deleted it; the leader
 * then removes that one again rather than a healthy one, so a block never loses more replicas than it had in excess.
 * Bounded: entries older than the timeout, and the oldest beyond {@code maxEntries}, are forgotten.
 */
public final class RecentDeletions {
  private record Key(long blockId, String datanodeUuid) {
  }

  private final LongSupplier clockMs;
  private final long timeoutMs;
  private final int maxEntries;
  /** In deletion order, so the oldest are first. */
  private final LinkedHashMap<Key, Long> deletedAtMs = new LinkedHashMap<>();
  private final Map<Long, Set<String>> byBlock = new HashMap<>();

  public RecentDeletions(LongSupplier clockMs, long timeoutMs, int maxEntries) {
    if (timeoutMs <= 0 || maxEntries <= 0) {
      throw new IllegalArgumentException("recent deletions need a positive timeout and size, got " + timeoutMs
          + " ms and " + maxEntries);
    }
    this.clockMs = clockMs;
    this.timeoutMs = timeoutMs;
    this.maxEntries = maxEntries;
  }

  public synchronized void add(long blockId, String datanodeUuid) {
    Key key = new Key(blockId, datanodeUuid);
    remove(key);
    deletedAtMs.put(key, clockMs.getAsLong());
    byBlock.computeIfAbsent(blockId, b -> new HashSet<>()).add(datanodeUuid);
    while (deletedAtMs.size() > maxEntries) {
      remove(deletedAtMs.keySet().iterator().next());
    }
  }

  /** The datanodes whose replica of {@code blockId} the leader removed within the timeout. */
  public synchronized Set<String> of(long blockId) {
    expire();
    return Set.copyOf(byBlock.getOrDefault(blockId, Set.of()));
  }

  public synchronized int size() {
    return deletedAtMs.size();
  }

  public synchronized void clear() {
    deletedAtMs.clear();
    byBlock.clear();
  }

  private void expire() {
    long now = clockMs.getAsLong();
    Iterator<Map.Entry<Key, Long>> oldest = deletedAtMs.entrySet().iterator();
    while (oldest.hasNext()) {
      Map.Entry<Key, Long> entry = oldest.next();
      if (now - entry.getValue() < timeoutMs) {
        break; // insertion order is time order
      }
      oldest.remove();
      unindex(entry.getKey());
    }
  }

  private void remove(Key key) {
    if (deletedAtMs.remove(key) != null) {
      unindex(key);
    }
  }

  private void unindex(Key key) {
    Set<String> datanodes = byBlock.get(key.blockId());
    if (datanodes != null) {
      datanodes.remove(key.datanodeUuid());
      if (datanodes.isEmpty()) {
        byBlock.remove(key.blockId());
      }
    }
  }
}
