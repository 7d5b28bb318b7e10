package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.topology.NetworkLocation;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A block spans min(2, replication, live domains) zones, or racks without zones (design 019), as HDFS checks racks. */
class ReplicaSpreadTest {
  @Test
  void withZonesABlockAllInOneZoneIsMisplacedOnceASecondZoneIsLive() {
    ReplicaSpread oneZone = ReplicaSpread.of(at("/az1/rack1", "/az1/rack2"));
    assertTrue(oneZone.zoned());
    assertFalse(oneZone.mayMisplace(), "one live zone: nothing can be spread");
    assertTrue(oneZone.satisfied(at("/az1/rack1", "/az1/rack2"), 2));
    assertTrue(ReplicaSpread.of(at("/az1/rack1", "/default-rack")).satisfied(at("/default-rack", "/default-rack"), 2),
        "one live zone: a block held by datanodes of no zone has nowhere to go either");

    ReplicaSpread twoZones = ReplicaSpread.of(at("/az1/rack1", "/az1/rack2", "/az2/rack1"));
    assertEquals(2, twoZones.liveDomains());
    assertFalse(twoZones.satisfied(at("/az1/rack1", "/az1/rack2"), 2), "two racks of one zone are one domain");
    assertTrue(twoZones.satisfied(at("/az1/rack1", "/az2/rack1"), 2));
    assertTrue(twoZones.satisfied(at("/az1/rack1"), 1), "replication 1 wants one zone");
  }

  @Test
  void twoZonesAreEnoughWhateverTheReplicationAndTheZoneCount() {
    ReplicaSpread threeZones = ReplicaSpread.of(at("/az1/r", "/az2/r", "/az3/r"));
    assertEquals(2, threeZones.wanted(3), "placement aims at three; two keep the data through a zone's loss");
    assertTrue(threeZones.satisfied(at("/az1/r", "/az1/r", "/az2/r"), 3));
    assertFalse(threeZones.satisfied(at("/az1/r", "/az1/r", "/az1/r"), 3));
  }

  @Test
  void aDatanodeOfNoZoneProtectsNoZone() {
    ReplicaSpread spread = ReplicaSpread.of(at("/az1/r", "/az2/r", "/default-rack"));
    assertEquals(2, spread.liveDomains(), "the unplaced datanode adds no domain");
    assertFalse(spread.satisfied(at("/az1/r", "/default-rack"), 2));
    assertFalse(spread.addsDomain(NetworkLocation.parse("/default-rack"), at("/az1/r")));
    assertTrue(spread.addsDomain(NetworkLocation.parse("/az2/r"), at("/az1/r", "/az1/r")));
    assertFalse(spread.addsDomain(NetworkLocation.parse("/az1/other"), at("/az1/r")), "another rack, same zone");
  }

  @Test
  void withoutZonesRacksAreTheDomainsAndAFlatClusterNeverMisplaces() {
    ReplicaSpread racks = ReplicaSpread.of(at("/rack1", "/rack2", "/rack2"));
    assertFalse(racks.zoned());
    assertTrue(racks.mayMisplace());
    assertFalse(racks.satisfied(at("/rack2", "/rack2"), 2));
    assertTrue(racks.satisfied(at("/rack1", "/rack2"), 3));
    assertTrue(racks.addsDomain(NetworkLocation.parse("/rack1"), at("/rack2", "/rack2")));

    ReplicaSpread flat = ReplicaSpread.of(at("/default-rack", "/default-rack"));
    assertFalse(flat.mayMisplace());
    assertTrue(flat.satisfied(at("/default-rack", "/default-rack", "/default-rack"), 3));
    assertFalse(ReplicaSpread.of(List.of()).mayMisplace(), "no live datanode at all");
  }

  @Test
  void aPageOfReplicasIsGroupedByBlockInOrder() {
    List<Replica> page = List.of(replica(1, 10, "a"), replica(1, 10, "b"), replica(1, 11, "a"), replica(2, 10, "c"));
    List<List<Replica>> blocks = PlacementScan.byBlock(page);
    assertEquals(3, blocks.size());
    assertEquals(List.of(replica(1, 10, "a"), replica(1, 10, "b")), blocks.get(0));
    assertEquals(List.of(replica(2, 10, "c")), blocks.get(2), "same block id in another file is another block");
  }

  private static List<NetworkLocation> at(String... locations) {
    return Arrays.stream(locations).map(NetworkLocation::parse).toList();
  }

  private static Replica replica(long inode, long block, String storage) {
    return new Replica(inode, block, storage, CorruptReason.NONE, 0);
  }
}
