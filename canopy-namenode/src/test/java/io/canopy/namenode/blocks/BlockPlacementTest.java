package io.canopy.namenode.blocks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.topology.TopologyResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.TableMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Zone- and rack-aware placement (design 019), over many seeds and cluster shapes. */
class BlockPlacementTest {
  @TempDir
  Path dir;

  private static final int SEEDS = 200;

  @Test
  void threeReplicasGoToThreeZonesWhenThereAreThree() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az1/rack1", "/az2/rack1", "/az2/rack1",
        "/az3/rack1", "/az3/rack1");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<BlockPlacement.Target> targets = placement(cluster, seed).choose("/f", 3, 1, Set.of(), null);
      assertEquals(3, zones(targets).size(), "seed " + seed + ": " + locations(targets));
      assertEquals(3, new HashSet<>(uuids(targets)).size());
    }
  }

  @Test
  void withTwoZonesTheThirdReplicaJoinsTheSecondOnItsRackAsHdfsDoes() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az1/rack1", "/az1/rack2", "/az1/rack2",
        "/az2/rack1", "/az2/rack1", "/az2/rack2", "/az2/rack2");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<NetworkLocation> at = locations(placement(cluster, seed).choose("/f", 3, 1, Set.of(), null));
      assertNotEquals(at.get(0).zone(), at.get(1).zone(), "seed " + seed + ": " + at);
      assertEquals(at.get(1).rack(), at.get(2).rack(), "seed " + seed + ": " + at);
    }
  }

  @Test
  void withoutZonesReplicasSpanTwoRacksWithTheThirdOnTheSecondsRack() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/rack1", "/rack1", "/rack1", "/rack2", "/rack2", "/rack2");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<NetworkLocation> at = locations(placement(cluster, seed).choose("/f", 3, 1, Set.of(), null));
      assertNotEquals(at.get(0).rack(), at.get(1).rack(), "seed " + seed + ": " + at);
      assertEquals(at.get(1).rack(), at.get(2).rack(), "seed " + seed + ": " + at);
    }
  }

  @Test
  void moreReplicasThanZonesSpreadEvenly() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/r1", "/az1/r2", "/az1/r3", "/az2/r1", "/az2/r2",
        "/az2/r3", "/az3/r1", "/az3/r2", "/az3/r3");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<NetworkLocation> at = locations(placement(cluster, seed).choose("/f", 6, 1, Set.of(), null));
      Map<String, Integer> perZone = new LinkedHashMap<>();
      at.forEach(l -> perZone.merge(l.zone(), 1, Integer::sum));
      assertEquals(Map.of("/az1", 2, "/az2", 2, "/az3", 2), perZone, "seed " + seed + ": " + at);
    }
  }

  @Test
  void theWritersOwnDatanodeGetsTheFirstReplica() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az2/rack1", "/az3/rack1");
    DatanodeRegistry.Node writer = cluster.get("dn2");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<BlockPlacement.Target> targets = placement(cluster, seed).choose("/f", 3, 1, Set.of(),
          writer.record().ipAddress());
      assertEquals("dn2", targets.get(0).node().record().uuid());
    }
  }

  @Test
  void aWriterThatIsNoDatanodeGetsTheFirstReplicaOnItsRackElseInItsZone() throws IOException {
    Path table = dir.resolve("topology.table");
    Files.writeString(table, "10.9.0.1 /az2/rack2\n10.9.0.2 /az3/rack7\n");
    Configuration conf = new Configuration(false);
    conf.setClass(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, TableMapping.class,
        DNSToSwitchMapping.class);
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.toString());
    TopologyResolver topology = TopologyResolver.fromConf(conf);
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az2/rack1", "/az2/rack2", "/az3/rack1",
        "/az3/rack2");
    for (int seed = 0; seed < SEEDS; seed++) {
      BlockPlacement placement = placement(cluster, seed, topology);
      assertEquals("/az2/rack2", locations(placement.choose("/f", 3, 1, Set.of(), "10.9.0.1")).get(0).rack());
      assertEquals("/az3", locations(placement.choose("/f", 3, 1, Set.of(), "10.9.0.2")).get(0).zone());
    }
  }

  @Test
  void aDatanodeTheTopologyLeftOnTheDefaultRackNeverStandsForAZone() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az1/rack1", "/az2/rack1", "/az2/rack1",
        "/default-rack");
    int firstOnDefaultRack = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      List<String> chosen = uuids(placement(cluster, seed).choose("/f", 4, 1, Set.of(), "10.7.7.7"));
      assertTrue(!chosen.subList(1, 4).contains("dn5"), "seed " + seed + ": " + chosen);
      firstOnDefaultRack += chosen.get(0).equals("dn5") ? 1 : 0;
    }
    // an unplaced writer (10.7.7.7 is on the default rack too) does not prefer the datanode on the default rack
    assertEquals(SEEDS / 5.0, firstOnDefaultRack, SEEDS / 8.0);
  }

  @Test
  void aWriterThatDeclaredItsLocationGetsItsFirstReplicaThereThoughEveryDatanodeSharesItsAddress() throws IOException {
    // a local cluster: every process on 127.0.0.1, so the address names no datanode in particular
    Map<String, DatanodeRegistry.Node> cluster = clusterAt("127.0.0.1", "/az1/rack1", "/az2/rack1", "/az3/rack1",
        "/az3/rack2");
    for (int seed = 0; seed < SEEDS; seed++) {
      List<NetworkLocation> at = locations(placement(cluster, seed).choose("/f", 2, 1, Set.of(), "127.0.0.1",
          NetworkLocation.parse("/az3/rack2")));
      assertEquals("/az3/rack2", at.get(0).rack(), "seed " + seed + ": the declared rack first");
      assertNotEquals("/az3", at.get(1).zone(), "seed " + seed + ": the second in another zone");
      assertEquals("/az2", locations(placement(cluster, seed).choose("/f", 1, 1, Set.of(), "127.0.0.1",
          NetworkLocation.parse("/az2/elsewhere"))).get(0).zone(), "seed " + seed + ": no datanode on the declared "
          + "rack: one of its zone");
    }
  }

  @Test
  void aWriterOnADatanodeGetsItUnlessItDeclaredAnotherRack() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az2/rack1", "/az3/rack1");
    String dn2 = cluster.get("dn2").record().ipAddress();
    for (int seed = 0; seed < SEEDS; seed++) {
      assertEquals("dn2", uuids(placement(cluster, seed).choose("/f", 1, 1, Set.of(), dn2,
          NetworkLocation.parse("/az2/rack1"))).get(0), "seed " + seed + ": on its own datanode, at its rack");
      assertEquals("dn3", uuids(placement(cluster, seed).choose("/f", 1, 1, Set.of(), dn2,
          NetworkLocation.parse("/az3/rack1"))).get(0), "seed " + seed + ": the declared rack wins over the address");
    }
  }

  @Test
  void aPipelineGrowingBackAndReReplicationRestoreTheZoneSpread() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/az1/rack1", "/az1/rack1", "/az1/rack2", "/az2/rack1",
        "/az3/rack1");
    for (int seed = 0; seed < SEEDS; seed++) {
      // a pipeline left with one datanode of az1 gets its second replica in another zone
      List<BlockPlacement.Target> added = placement(cluster, seed).choose("/f", 1, 1, Set.of("dn1"), null, null,
          List.of("dn1"));
      assertNotEquals("/az1", locations(added).get(0).zone(), "seed " + seed);
      // a block left with two replicas in az1 (its third zone lost) gets its copy in a zone holding none
      List<BlockPlacement.Target> copies = placement(cluster, seed).chooseAdditional(1, Set.of("dn1", "dn2"),
          List.of("dn1", "dn2"));
      assertNotEquals("/az1", locations(copies).get(0).zone(), "seed " + seed);
    }
  }

  @Test
  void aClusterWithoutLocationsStillGetsDistinctDatanodesAndHdfsErrorWhenTooFew() throws IOException {
    Map<String, DatanodeRegistry.Node> cluster = cluster("/default-rack", "/default-rack", "/default-rack");
    for (int seed = 0; seed < SEEDS; seed++) {
      assertEquals(3, new HashSet<>(uuids(placement(cluster, seed).choose("/f", 5, 1, Set.of(), null))).size());
    }
    IOException refused = assertThrows(IOException.class,
        () -> placement(cluster, 1).choose("/dir/f", 3, 2, Set.of("dn1", "dn2"), null));
    assertTrue(refused.getMessage().contains("/dir/f could only be written to 1 of the 2 minReplication nodes"),
        refused.getMessage());
  }

  /** Datanodes dn1.. at the given locations, each with its own IP address and one usable storage. */
  static Map<String, DatanodeRegistry.Node> cluster(String... locations) {
    return clusterAt(null, locations);
  }

  /** Datanodes dn1.. at {@code locations}, all on host {@code ip} (null: each on its own, 127.0.0.N). */
  static Map<String, DatanodeRegistry.Node> clusterAt(String ip, String... locations) {
    Map<String, DatanodeRegistry.Node> nodes = new LinkedHashMap<>();
    for (int i = 0; i < locations.length; i++) {
      String uuid = "dn" + (i + 1);
      DatanodeRecord record = new DatanodeRecord(uuid, uuid + ".localhost", ip != null ? ip : "127.0.0." + (i + 1),
          9866, 9864, 0,
          9867, locations[i], "3.5.0", 0, 100L << 30, 0, 100L << 30, 0, 0, 0, 0);
      nodes.put(uuid, new DatanodeRegistry.Node(record,
          List.of(new StorageRecord(uuid, "DS-" + uuid, "DISK", false, 100L << 30, 0, 100L << 30, 0))));
    }
    return nodes;
  }

  private static BlockPlacement placement(Map<String, DatanodeRegistry.Node> cluster, long seed) {
    return placement(cluster, seed, TopologyResolver.fromConf(new Configuration(false)));
  }

  private static BlockPlacement placement(Map<String, DatanodeRegistry.Node> cluster, long seed,
      TopologyResolver topology) {
    return new BlockPlacement(new DatanodeSource() {
      @Override
      public List<DatanodeRegistry.Node> live() {
        return new ArrayList<>(cluster.values());
      }

      @Override
      public DatanodeRegistry.Node node(String uuid) {
        return cluster.get(uuid);
      }
    }, topology, new Random(seed));
  }

  private static List<NetworkLocation> locations(List<BlockPlacement.Target> targets) {
    return targets.stream().map(t -> NetworkLocation.parse(t.node().record().networkLocation())).toList();
  }

  private static Set<String> zones(List<BlockPlacement.Target> targets) {
    Set<String> zones = new HashSet<>();
    locations(targets).forEach(l -> zones.add(l.zone()));
    return zones;
  }

  private static List<String> uuids(List<BlockPlacement.Target> targets) {
    return targets.stream().map(t -> t.node().record().uuid()).toList();
  }
}
