package io.canopy.namenode.datanode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The incremental reports this namenode received but left to another namenode to apply (design 018), per datanode,
 * kept for a handover: if this namenode becomes the datanode's applier, it replays what it received in the last
 * handover period first, so nothing the old applier may not have applied is lost. Bounded in time (entries older
 * than the period leave as new ones come) and in size ({@link #MAX_REPLICAS_PER_DATANODE}); a replay that finds it
 * dropped entries from the time it replays from says so, and the caller asks the datanode for a full report.
 */
public final class ReportBuffer {
  /** Replica entries kept per datanode at most (a few seconds of a busy datanode's reports). */
  static final int MAX_REPLICAS_PER_DATANODE = 16_384;

  /** One storage's incremental report as received. */
  public record Entry(long receivedAtMs, String storageId, List<ReportedReplica> replicas) {
  }

  /** What a replay gets: the entries of the period in arrival order, and whether some of the period were dropped. */
  public record Replay(List<Entry> entries, boolean incomplete) {
  }

  private static final class Queue {
    final ArrayDeque<Entry> entries = new ArrayDeque<>();
    int replicas;
    long droppedUpToMs = Long.MIN_VALUE;
  }

  private final ConcurrentHashMap<String, Queue> queues = new ConcurrentHashMap<>();
  private final int maxReplicas;

  public ReportBuffer() {
    this(MAX_REPLICAS_PER_DATANODE);
  }

  ReportBuffer(int maxReplicas) {
    if (maxReplicas < 1) {
      throw new IllegalArgumentException("a report buffer must hold at least 1 replica, got " + maxReplicas);
    }
    this.maxReplicas = maxReplicas;
  }

  /**
   * Keeps a report of {@code datanodeUuid}, dropping entries older than {@code periodMs} and the oldest past the
   * bound.
   */
  public void add(String datanodeUuid, Entry entry, long periodMs) {
    Queue queue = queues.computeIfAbsent(datanodeUuid, uuid -> new Queue());
    synchronized (queue) {
      queue.entries.addLast(entry);
      queue.replicas += entry.replicas().size();
      long oldest = entry.receivedAtMs() - periodMs;
      while (!queue.entries.isEmpty()
          && (queue.entries.peekFirst().receivedAtMs() < oldest || queue.replicas > maxReplicas)) {
        Entry dropped = queue.entries.removeFirst();
        queue.replicas -= dropped.replicas().size();
        queue.droppedUpToMs = Math.max(queue.droppedUpToMs, dropped.receivedAtMs());
      }
    }
  }

  /**
   * Takes (and removes) what {@code datanodeUuid} reported since {@code fromMs}; incomplete when an entry of that
   * time or later was dropped (by age or by the bound).
   */
  public Replay take(String datanodeUuid, long fromMs) {
    Queue queue = queues.get(datanodeUuid);
    if (queue == null) {
      return new Replay(List.of(), false);
    }
    synchronized (queue) {
      long oldest = fromMs;
      List<Entry> entries = new ArrayList<>();
      for (Entry entry : queue.entries) {
        if (entry.receivedAtMs() >= oldest) {
          entries.add(entry);
        }
      }
      boolean incomplete = queue.droppedUpToMs >= oldest;
      queue.entries.clear();
      queue.replicas = 0;
      queue.droppedUpToMs = Long.MIN_VALUE;
      return new Replay(entries, incomplete);
    }
  }

  /** Replica entries kept for {@code datanodeUuid} now. */
  public int size(String datanodeUuid) {
    Queue queue = queues.get(datanodeUuid);
    if (queue == null) {
      return 0;
    }
    synchronized (queue) {
      return queue.replicas;
    }
  }
}
