package io.canopy.namenode.replication;

import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.datanode.FullReportTracker;
import java.util.function.LongSupplier;

/**
 * What the leader's block housekeeping shares: the datanode view, placement, its in-memory state, the full reports
 * of its term (deletions wait for them after a leader change), bounds, clock.
 */
public record ReplicationServices(DatanodeRegistry registry, BlockPlacement placement, PendingTransfers pending,
    RecentDeletions recentDeletions, FullReportTracker fullReports, ReplicationSettings settings,
    LongSupplier clockMs) {
  public long now() {
    return clockMs.getAsLong();
  }
}
