package io.canopy.namenode.replication;

import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.QueuedBlock;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Queued blocks the leader can not help now: missing (no live replica) or with no datanode to be copied to (say,
 * replication 3 on a one-datanode cluster). Looking at them again costs a transaction and changes nothing until a
 * datanode comes or goes, or their row changes (any writer that queues a block again writes a new time), so they are
 * skipped while their row is the one remembered and the live datanodes are the same, for at most the backoff.
 * Bounded: beyond the limit, rows are simply looked at every pass.
 */
final class IdleRows {
  private record Idle(QueuedBlock row, long untilMs) {
  }

  private final LongSupplier clockMs;
  private final long backoffMs;
  private final int limit;
  private final Map<BlockKey, Idle> rows = new HashMap<>();
  private Set<String> liveDatanodes = Set.of();

  IdleRows(LongSupplier clockMs, long backoffMs, int limit) {
    this.clockMs = clockMs;
    this.backoffMs = backoffMs;
    this.limit = limit;
  }

  /** Forgets every idle row when the live datanodes are not those of the previous call. */
  void liveDatanodesAre(Set<String> uuids) {
    if (!uuids.equals(liveDatanodes)) {
      rows.clear();
      liveDatanodes = Set.copyOf(uuids);
    }
  }

  /** True when exactly this row was found helpless within the backoff. */
  boolean isIdle(QueuedBlock row) {
    Idle idle = rows.get(row.key());
    if (idle == null) {
      return false;
    }
    if (!idle.row().equals(row) || idle.untilMs() <= clockMs.getAsLong()) {
      rows.remove(row.key());
      return false;
    }
    return true;
  }

  void idle(QueuedBlock row) {
    if (rows.size() < limit || rows.containsKey(row.key())) {
      rows.put(row.key(), new Idle(row, clockMs.getAsLong() + backoffMs));
    }
  }

  void clear() {
    rows.clear();
    liveDatanodes = Set.of();
  }

  int size() {
    return rows.size();
  }
}
