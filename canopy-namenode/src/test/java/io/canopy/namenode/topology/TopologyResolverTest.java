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
  void hadoopsTableMappingPlacesByAddress() throws Exception {
    TopologyResolver resolver = TopologyResolver.fromConf(tableConf(TableMapping.class,
        "10.0.0.5 /az2/rack3\n10.0.0.6 /az1/rack1\n"));
    assertEquals("/az2/rack3", resolver.resolve("10.0.0.5", "whatever"));
    assertEquals("/az1/rack1", resolver.resolve("10.0.0.7", "10.0.0.6"), "the other name when the first is unknown");
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve("10.0.0.9", null));
  }

  @Test
  void theNameTableMappingPlacesByHostNameAsWrittenWithoutDns() throws Exception {
    // every datanode of a local cluster is 127.0.0.1: its host name places it, even where *.localhost resolves
    TopologyResolver resolver = TopologyResolver.fromConf(tableConf(NameTableMapping.class,
        "# comment\ndatanode-1.az1.localhost /az1/rack1   # zone 1\nnot a line\n127.0.0.9 /az3/rack2\n"));
    assertEquals("/az1/rack1", resolver.resolve("127.0.0.1", "datanode-1.az1.localhost"));
    assertEquals(new NetworkLocation("/az1", "/az1/rack1"), resolver.locate("127.0.0.1", "datanode-1.az1.localhost"));
    assertEquals("/az3/rack2", resolver.resolve("127.0.0.9", "unknown.localhost"), "then the address");
    assertEquals(NetworkLocation.DEFAULT_RACK, resolver.resolve("127.0.0.1", "datanode-9.localhost"));
    Configuration missing = tableConf(NameTableMapping.class, "");
    Path late = dir.resolve("late.table");
    missing.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, late.toString());
    TopologyResolver beforeTheFile = TopologyResolver.fromConf(missing);
    assertEquals(NetworkLocation.DEFAULT_RACK, beforeTheFile.resolve(null, "datanode-1"));
    Files.writeString(late, "datanode-1 /az2/rack1/\n");
    assertEquals("/az2/rack1", beforeTheFile.resolve(null, "datanode-1"), "read once it exists; '/' dropped");
  }

  private Configuration tableConf(Class<? extends org.apache.hadoop.net.DNSToSwitchMapping> mapping, String lines)
      throws Exception {
    Path table = Files.createTempFile(dir, "topology", ".table");
    Files.writeString(table, lines);
    Configuration conf = new Configuration(false);
    conf.setClass(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, mapping,
        org.apache.hadoop.net.DNSToSwitchMapping.class);
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.toString());
    return conf;
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
    assertEquals(new NetworkLocation("/az1", "/az1/rack1"), NetworkLocation.parse("/az1/rack1/"), "as HDFS");
    for (String bad : new String[] {"", "/", "rack", "/a//", "/a//b"}) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> NetworkLocation.parse(bad));
      assertEquals(true, refused.getMessage().contains("'" + bad + "'"), refused.getMessage());
    }
    assertEquals(NetworkLocation.UNKNOWN, NetworkLocation.parseOrUnknown(null));
  }
}
