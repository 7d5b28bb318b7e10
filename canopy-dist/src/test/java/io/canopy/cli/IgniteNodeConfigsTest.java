package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What canopy up writes for a cluster on Ignite (design 020): node files, and the settings namenodes get. */
class IgniteNodeConfigsTest {
  @TempDir
  Path dir;

  private static ClusterProperties cluster(int nodes, Map<String, String> overrides) {
    Map<String, Integer> ports = new TreeMap<>();
    for (int i = 1; i <= nodes; i++) {
      Role node = Role.databaseNode(i);
      ports.put(node.name(), 42000 + 10 * i);
      ports.put(ClusterProperties.networkPortKey(node), 42001 + 10 * i);
      ports.put(ClusterProperties.restPortKey(node), 42002 + 10 * i);
    }
    ports.put("namenode-1", 42100);
    ports.put("namenode-1.service", 42101);
    return new ClusterProperties(ClusterProperties.IGNITE, nodes, 1, 0, 0, ports, overrides);
  }

  @Test
  void everyNodeListensOnLoopbackAndKnowsEveryOtherAsASeed() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    IgniteNodeConfigs.writeAll(layout, cluster(3, Map.of()));
    String second = Files.readString(IgniteNodeConfigs.nodeFile(layout, Role.databaseNode(2)));
    assertTrue(second.contains("port: 42021\n"), second);
    assertTrue(second.contains("clientConnector {\n    port: 42020\n    listenAddresses: [\"127.0.0.1\"]"), second);
    assertTrue(second.contains("rest.port: 42022"), second);
    assertTrue(second.contains("nodeFinder.netClusterNodes: [\"127.0.0.1:42011\", \"127.0.0.1:42021\", "
        + "\"127.0.0.1:42031\"]"), second);
    assertTrue(second.contains("raft.fsync: false"), "three nodes: a majority of processes holds a commit");
    String clusterConfig = Files.readString(IgniteNodeConfigs.clusterFile(layout));
    assertTrue(clusterConfig.contains("\n  replication.idleSafeTimePropagationDurationMillis: 100\n"), clusterConfig);
    assertTrue(clusterConfig.contains("\n  system.idleSafeTimeSyncIntervalMillis: 20\n"), clusterConfig);
    IgniteNodeConfigs.writeAll(layout, cluster(1, Map.of()));
    assertTrue(Files.readString(IgniteNodeConfigs.nodeFile(layout, Role.databaseNode(1))).contains("raft.fsync: true"),
        "one node holds every copy: its disk must");
  }

  @Test
  void eachNamenodeListsItsHomeNodeFirstRoundTheNodes() {
    List<String> nodes = List.of("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3");
    assertEquals(nodes, MetadataAccess.homeFirst(nodes, 1));
    assertEquals(List.of("127.0.0.1:2", "127.0.0.1:3", "127.0.0.1:1"), MetadataAccess.homeFirst(nodes, 2));
    assertEquals(List.of("127.0.0.1:3", "127.0.0.1:1", "127.0.0.1:2"), MetadataAccess.homeFirst(nodes, 3));
    assertEquals(nodes, MetadataAccess.homeFirst(nodes, 4), "namenode 4 starts again at db-1");
    assertThrows(IllegalArgumentException.class, () -> MetadataAccess.homeFirst(nodes, 0));
  }

  @Test
  void namenodesGetTheEngineTheClientAddressesAndOneCopyPerNodeUpToThree() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    Map<String, String> three = MetadataAccess.settings(layout, cluster(3, Map.of()), MetadataAccess.Login.OWNER,
        null);
    assertEquals("ignite", three.get("canopy.metadata.engine"));
    assertEquals("127.0.0.1:42010,127.0.0.1:42020,127.0.0.1:42030", three.get("canopy.metadata.ignite.addresses"));
    assertEquals("3", three.get("canopy.metadata.ignite.replicas"));
    assertFalse(three.keySet().stream().anyMatch(key -> key.startsWith("canopy.metadata.jdbc")), three.toString());
    assertEquals("2", MetadataAccess.settings(layout, cluster(2, Map.of()), MetadataAccess.Login.READER, null)
        .get("canopy.metadata.ignite.replicas"));
    assertEquals("3", MetadataAccess.settings(layout, cluster(5, Map.of()), MetadataAccess.Login.OWNER, null)
        .get("canopy.metadata.ignite.replicas"));
    assertEquals("5", MetadataAccess.settings(layout, cluster(5, Map.of("canopy.metadata.ignite.replicas", "5")),
        MetadataAccess.Login.OWNER, null).get("canopy.metadata.ignite.replicas"), "-D decides when given");
    Map<String, String> external = MetadataAccess.settings(layout, cluster(3,
        Map.of("canopy.metadata.ignite.addresses", "10.1.2.3:10800")), MetadataAccess.Login.OWNER, null);
    assertEquals("10.1.2.3:10800", external.get("canopy.metadata.ignite.addresses"));
    assertEquals(List.of(), cluster(3, Map.of("canopy.metadata.ignite.addresses", "10.1.2.3:10800"))
        .databaseRoles());
  }
}
