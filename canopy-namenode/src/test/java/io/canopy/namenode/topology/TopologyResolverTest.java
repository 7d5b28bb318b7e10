package io.canopy.namenode.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.TableMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Network locations from Hadoop's topology mappings, configured as for HDFS (design 019). */
class TopologyResolverTest {
  @TempDir
  Path dir;

  @Test
  void hadoopsTableMappingPlacesByAddressOrElseByHostName() throws Exception {
    Path table = dir.resolve("topology.table");
    Files.writeString(table, "10.0.0.5 /az2/rack3\ndn1.az1.localhost /az1/rack1\n");
    Configuration conf = new Configuration(false);
    conf.setClass(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, TableMapping.class,
        org.apache.hadoop.net.DNSToSwitchMapping.class);
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.toString());
    TopologyResolver resolver = TopologyResolver.fromConf(conf);
    assertEquals("/az2/rack3", resolver.resolve("10.0.0.5", "whatever"));
    // every datanode of a local cluster is 127.0.0.1: its host name places it
    assertEquals("/az1/rack1", resolver.resolve("127.0.0.1", "dn1.az1.localhost"));
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve("127.0.0.1", "dn9.localhost"));
    assertEquals(new NetworkLocation("/az1", "/az1/rack1"), resolver.locate("127.0.0.1", "dn1.az1.localhost"));
  }

  @Test
  void theDefaultMappingWithoutAScriptPlacesEveryoneOnTheDefaultRack() {
    TopologyResolver resolver = TopologyResolver.fromConf(new Configuration(false));
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve("127.0.0.1", "localhost"));
    assertEquals(NetworkLocation.UNKNOWN, resolver.locate("127.0.0.1", null));
  }

  @Test
  void aMalformedAnswerIsTheDefaultRack() {
    TopologyResolver resolver = new TopologyResolver(new MapMapping(Map.of("a", "az1/rack1", "b", "/az1//r")));
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve(null, "a"));
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve(null, "b"));
  }

  @Test
  void locationsSplitIntoZoneAndRack() {
    assertEquals(new NetworkLocation("/az1", "/az1/rack1"), NetworkLocation.parse("/az1/rack1"));
    assertEquals(new NetworkLocation("/dc1", "/dc1/az2/rack3"), NetworkLocation.parse("/dc1/az2/rack3"));
    assertEquals(new NetworkLocation("", "/default-rack"), NetworkLocation.parse("/default-rack"));
    for (String bad : new String[] {"", "/", "rack", "/a/", "/a//b"}) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> NetworkLocation.parse(bad));
      assertEquals(true, refused.getMessage().contains("'" + bad + "'"), refused.getMessage());
    }
    assertEquals(NetworkLocation.UNKNOWN, NetworkLocation.parseOrUnknown(null));
  }
}
