package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterPropertiesTest {
  @TempDir
  Path dir;

  @Test
  void roundTrips() throws Exception {
    ClusterProperties written = new ClusterProperties(2, 1,
        Map.of("db", 40001, "namenode-1", 40002, "namenode-2", 40003, "namenode-1.service", 40102,
            "namenode-2.service", 40103, "datanode-1", 40004),
        Map.of("dfs.blocksize", "1048576", "odd.value", "a=b c:d\\e"));
    Path file = dir.resolve("cluster.properties");
    written.store(file);
    ClusterProperties read = ClusterProperties.load(file).orElseThrow();
    assertEquals(2, read.namenodes());
    assertEquals(1, read.datanodes());
    assertEquals(written.ports(), read.ports());
    assertEquals(written.overrides(), read.overrides());
    assertEquals("hdfs://canopy", read.defaultFs(), "two namenodes: the nameservice");
    assertEquals(List.of("127.0.0.1:40002", "127.0.0.1:40003"), read.namenodeAddresses());
    assertEquals(List.of("127.0.0.1:40102", "127.0.0.1:40103"), read.namenodeServiceAddresses());
    CliException unplanned = assertThrows(CliException.class,
        () -> new ClusterProperties(1, 0, Map.of("namenode-1", 1), Map.of()).servicePort(Role.namenode(1)));
    assertTrue(unplanned.getMessage().contains("canopy up"), unplanned.getMessage());
    assertEquals("hdfs://127.0.0.1:40002", new ClusterProperties(1, 0, Map.of("db", 1, "namenode-1", 40002),
        Map.of()).defaultFs(), "one namenode: its address");
    assertEquals(List.of(Role.DATABASE, Role.namenode(1), Role.namenode(2), Role.datanode(1)),
        List.copyOf(Role.all(read.namenodes(), read.datanodes(), true)));
    assertTrue(Files.readString(file).startsWith("# Written by canopy up"));
    assertEquals(0, read.zones(), "no zones unless asked");
    new ClusterProperties(2, 1, 3, written.ports(), Map.of()).store(file);
    ClusterProperties zoned = ClusterProperties.load(file).orElseThrow();
    assertEquals(3, zoned.zones());
    assertEquals(3, zoned.withAddedNamenode(40200, 40201, 40202).zones(), "an added namenode keeps the zones");
    assertEquals(List.of(1, 2, 3, 1), List.of(zoned.zoneOf(Role.namenode(1)), zoned.zoneOf(Role.namenode(2)),
        zoned.zoneOf(Role.namenode(3)), zoned.zoneOf(Role.namenode(4))));
  }

  @Test
  void anIgniteClusterKeepsItsEngineAndRunsOneRoleWithThreePortsPerDatabaseNode() throws Exception {
    Map<String, Integer> ports = Map.of("db-1", 41001, "db-1.network", 41002, "db-1.rest", 41003, "db-2", 41011,
        "db-2.network", 41012, "db-2.rest", 41013, "namenode-1", 41100, "namenode-1.service", 41101);
    Path file = dir.resolve("cluster.properties");
    new ClusterProperties(ClusterProperties.IGNITE, 2, 1, 0, 0, ports, Map.of()).store(file);
    ClusterProperties read = ClusterProperties.load(file).orElseThrow();
    assertTrue(read.onIgnite());
    assertEquals(2, read.databaseNodes());
    assertEquals(List.of(Role.databaseNode(1), Role.databaseNode(2)), read.databaseRoles());
    List<Role> roles = new java.util.ArrayList<>();
    read.roles().forEach(roles::add);
    assertEquals(List.of(Role.databaseNode(1), Role.databaseNode(2), Role.namenode(1)), roles);
    assertEquals(List.of("127.0.0.1:41001", "127.0.0.1:41011"), read.databaseNodeClientAddresses());
    assertEquals(41012, read.portOf(ClusterProperties.networkPortKey(Role.databaseNode(2))));
    assertEquals(2, read.withAddedNamenode(41200, 41201, 41202).databaseNodes(), "an added namenode keeps the engine");
    ClusterProperties external = new ClusterProperties(ClusterProperties.IGNITE, 3, 1, 0, 0, ports,
        Map.of("canopy.metadata.ignite.addresses", "10.0.0.1:10800"));
    assertTrue(external.externalDatabase());
    assertEquals(List.of(), external.databaseRoles(), "an external Ignite cluster: no database process");
    assertEquals(ClusterProperties.POSTGRES, new ClusterProperties(1, 0, Map.of(), Map.of()).engine());
    assertThrows(IllegalArgumentException.class, () -> new ClusterProperties("mysql", 1, 1, 0, 0, ports, Map.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new ClusterProperties(ClusterProperties.POSTGRES, 3, 1, 0, 0, ports, Map.of()));
  }

  @Test
  void missingFileIsEmptyAndGarbageIsAnActionableError() throws Exception {
    assertTrue(ClusterProperties.load(dir.resolve("absent")).isEmpty());
    Path bad = dir.resolve("bad.properties");
    Files.writeString(bad, "namenodes=many\n");
    CliException error = assertThrows(CliException.class, () -> ClusterProperties.load(bad));
    assertTrue(error.getMessage().contains(bad.toString()), error.getMessage());
  }

  @Test
  void rolesHaveStableNames() {
    assertEquals("db", Role.DATABASE.name());
    assertEquals("namenode-3", Role.namenode(3).name());
    assertEquals(Role.datanode(12), Role.parse("datanode-12").orElseThrow());
    assertEquals(Role.DATABASE, Role.parse("db").orElseThrow());
    assertEquals("db-2", Role.databaseNode(2).name());
    assertEquals(Role.databaseNode(3), Role.parse("db-3").orElseThrow());
    assertTrue(Role.parse("db-0").isEmpty());
    assertTrue(Role.parse("datanode-0").isEmpty());
    assertTrue(Role.parse("namenode-x").isEmpty());
    assertTrue(Role.parse("canopy").isEmpty());
  }
}
