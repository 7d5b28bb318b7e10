package io.canopy.namenode.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A reader gets its zone's replicas, then its rack's, then its own datanode's first (design 019). */
class ReaderOrderTest {
  private final ReaderOrder order = new ReaderOrder(new TopologyResolver(new MapMapping(Map.of())), new Random(7));

  @Test
  void theReadersZoneComesFirstAndStorageIdsFollowTheirDatanodes() {
    for (int round = 0; round < 50; round++) {
      LocatedBlock block = block(node("dn1", "10.0.1.1", "/az1/rack1"), node("dn2", "10.0.2.1", "/az2/rack1"),
          node("dn3", "10.0.3.1", "/az3/rack1"));
      order.sort(block, NetworkLocation.parse("/az2/rack9"), "10.0.2.200");
      assertEquals("dn2", block.getLocations()[0].getDatanodeUuid());
      for (int i = 0; i < 3; i++) {
        assertEquals("DS-" + block.getLocations()[i].getDatanodeUuid(), block.getStorageIDs()[i]);
      }
    }
  }

  @Test
  void withinTheZoneTheRackThenTheReadersOwnDatanode() {
    for (int round = 0; round < 50; round++) {
      LocatedBlock block = block(node("far", "10.0.3.1", "/az3/rack1"), node("zone", "10.0.1.2", "/az1/rack2"),
          node("rack", "10.0.1.3", "/az1/rack1"), node("own", "10.0.1.4", "/az1/rack1"));
      order.sort(block, NetworkLocation.parse("/az1/rack1"), "10.0.1.4");
      assertEquals("own,rack,zone,far", String.join(",", Arrays.stream(block.getLocations())
          .map(DatanodeInfo::getDatanodeUuid).toList()));
    }
  }

  @Test
  void anUnplacedReaderGetsItsOwnDatanodeFirstAndNoDefaultRackFavourite() {
    int defaultRackFirst = 0;
    for (int round = 0; round < 300; round++) {
      LocatedBlock block = block(node("az1", "10.0.1.1", "/az1/rack1"), node("lost", "10.0.9.9", "/default-rack"),
          node("az2", "10.0.2.1", "/az2/rack1"));
      order.sort(block, NetworkLocation.UNKNOWN, "10.7.7.7");
      defaultRackFirst += block.getLocations()[0].getDatanodeUuid().equals("lost") ? 1 : 0;
      order.sort(block, NetworkLocation.UNKNOWN, "10.0.2.1");
      assertEquals("az2", block.getLocations()[0].getDatanodeUuid(), "its own datanode");
    }
    assertEquals(100, defaultRackFirst, 45, "a datanode on the default rack is as near as any other");
  }

  @Test
  void aDeclaredLocationWinsOverTheAddressAndABadOneIsNoPlace() {
    assertEquals(NetworkLocation.parse("/az2/rack1"), order.readerAt(ReaderOrder.declared("/az2/rack1"),
        "127.0.0.1"));
    assertEquals(null, ReaderOrder.declared("az2"), "not a location: as if none was sent");
    assertEquals(NetworkLocation.UNKNOWN, order.readerAt(ReaderOrder.declared("az2"), "127.0.0.1"));
    assertEquals(NetworkLocation.UNKNOWN, order.readerAt(null, "127.0.0.1"));
  }

  @Test
  void repliesAtTheSameDistanceAreSpreadOverAllReplicas() {
    int[] first = new int[3];
    for (int round = 0; round < 300; round++) {
      LocatedBlock block = block(node("dn0", "10.0.1.1", "/az1/rack1"), node("dn1", "10.0.1.2", "/az1/rack1"),
          node("dn2", "10.0.1.3", "/az1/rack1"));
      order.sort(block, NetworkLocation.parse("/az1/rack1"), "10.9.9.9");
      first[block.getLocations()[0].getDatanodeUuid().charAt(2) - '0']++;
    }
    for (int count : first) {
      assertEquals(100, count, 45, Arrays.toString(first));
    }
  }

  private static DatanodeInfo node(String uuid, String ip, String location) {
    return new DatanodeInfoBuilder().setDatanodeUuid(uuid).setIpAddr(ip).setHostName(uuid).setXferPort(9866)
        .setNetworkLocation(location).build();
  }

  private static LocatedBlock block(DatanodeInfo... nodes) {
    String[] storages = Arrays.stream(nodes).map(n -> "DS-" + n.getDatanodeUuid()).toArray(String[]::new);
    StorageType[] types = new StorageType[nodes.length];
    Arrays.fill(types, StorageType.DISK);
    return new LocatedBlock(new ExtendedBlock("BP-1", 1, 10, 1), nodes, storages, types);
  }
}
