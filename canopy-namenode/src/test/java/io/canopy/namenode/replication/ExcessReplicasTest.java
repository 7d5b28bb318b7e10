package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.blocks.DatanodeRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Excess replicas go from the most crowded zone, then rack, then the fullest datanode (design 019). */
class ExcessReplicasTest {
  @Test
  void aZoneComingBackLosesTheReplicaOfTheZoneHoldingTwo() {
    List<ReplicaHolder> live = holders("/az1/rack1:50", "/az1/rack2:90", "/az2/rack1:10", "/az3/rack1:5");
    // az1 holds two: one of those goes (the fuller datanode), though az2's and az3's have less space left
    assertEquals(List.of("dn1"), uuids(ExcessReplicas.victims(live, 1)));
  }

  @Test
  void withinAZoneTheCrowdedRackGoesFirstThenTheFullestDatanode() {
    List<ReplicaHolder> live = holders("/az1/rack1:50", "/az1/rack1:40", "/az1/rack2:10", "/az2/rack1:5",
        "/az2/rack1:1");
    // az1 holds three, rack1 two of them: dn2 (less space than dn1); then az1 and az2 hold two each, no rack is
    // crowded in az1 any more but az2's rack1 is: dn5
    assertEquals(List.of("dn2", "dn5"), uuids(ExcessReplicas.victims(live, 2)));
  }

  @Test
  void aReplicaOnADatanodeOfNoZoneGoesFirstAmongZonedOnes() {
    List<ReplicaHolder> live = holders("/az1/rack1:50", "/az2/rack1:10", "/default-rack:90", "/az3/rack1:5");
    assertEquals(List.of("dn3"), uuids(ExcessReplicas.victims(live, 1)));
  }

  @Test
  void withoutLocationsTheFullestDatanodesGoAsBefore() {
    List<ReplicaHolder> live = holders("/default-rack:30", "/default-rack:10", "/default-rack:20");
    assertEquals(List.of("dn2", "dn3"), uuids(ExcessReplicas.victims(live, 2)));
    assertThrows(IllegalArgumentException.class, () -> ExcessReplicas.victims(live, 4));
  }

  /** Live holders dn1.. of "location:remaining GB". */
  private static List<ReplicaHolder> holders(String... specs) {
    List<ReplicaHolder> holders = new ArrayList<>();
    for (int i = 0; i < specs.length; i++) {
      String[] parts = specs[i].split(":");
      String uuid = "dn" + (i + 1);
      long remaining = Long.parseLong(parts[1]) << 30;
      DatanodeRecord record = new DatanodeRecord(uuid, uuid + ".localhost", "127.0.0.1", 9866, 9864, 0, 9867,
          parts[0], "3.5.0", 0, 100L << 30, 0, remaining, 0, 0, 0, 0);
      holders.add(new ReplicaHolder(new Replica(1, 100, "DS-" + uuid, CorruptReason.NONE, 0),
          new DatanodeRegistry.Node(record, List.of()), true));
    }
    return holders;
  }

  private static List<String> uuids(List<ReplicaHolder> holders) {
    return holders.stream().map(ReplicaHolder::uuid).toList();
  }
}
