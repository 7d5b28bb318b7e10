package io.canopy.namenode.replication;

import io.canopy.namenode.topology.NetworkLocation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which replicas of an over-replicated block go (design 019), one at a time as HDFS chooses them, with zones above
 * racks: from the zone holding the most replicas, within it from the rack holding the most, then the datanode with
 * the least remaining space (ties: smallest uuid). So removing excess never narrows a block's spread over zones or
 * racks while a crowded one is left to take from.
 */
final class ExcessReplicas {
  private ExcessReplicas() {
  }

  /** {@code count} of {@code live} to delete, in the order chosen. */
  static List<ReplicaHolder> victims(List<ReplicaHolder> live, int count) {
    if (count < 0 || count > live.size()) {
      throw new IllegalArgumentException("invariant: cannot remove " + count + " of " + live.size() + " replicas");
    }
    List<ReplicaHolder> kept = new ArrayList<>(live);
    List<ReplicaHolder> victims = new ArrayList<>();
    while (victims.size() < count) {
      List<NetworkLocation> locations = ReplicaHolder.locations(kept);
      boolean zoned = locations.stream().anyMatch(NetworkLocation::hasZone);
      // among zoned replicas, one on a datanode of no zone (the topology did not place it) protects no zone: first
      ReplicaHolder victim = kept.stream().min(Comparator
          .comparingInt((ReplicaHolder h) -> zoned && !h.location().hasZone() ? 0 : 1)
          .thenComparingLong(h -> -locations.stream().filter(h.location()::sameZone).count())
          .thenComparingLong(h -> -locations.stream().filter(h.location()::sameRack).count())
          .thenComparingLong(ReplicaHolder::remaining)
          .thenComparing(h -> h.uuid() == null ? "" : h.uuid())).orElseThrow();
      kept.remove(victim);
      victims.add(victim);
    }
    return victims;
  }
}
