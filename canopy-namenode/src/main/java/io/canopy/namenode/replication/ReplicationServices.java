package io.canopy.namenode.replication;

import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.DatanodeRegistry;
import java.util.function.LongSupplier;

/** What the leader's block housekeeping shares: the datanode view, placement, its in-memory state, bounds, clock. */
public record ReplicationServices(DatanodeRegistry registry, BlockPlacement placement, PendingTransfers pending,
    RecentDeletions recentDeletions, ReplicationSettings settings, LongSupplier clockMs) {
  public long now() {
    return clockMs.getAsLong();
  }
}
