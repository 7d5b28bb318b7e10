package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import io.canopy.client.Nameservice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterConfigsTest {
  @TempDir
  Path dir;

  private static ClusterProperties cluster(Map<String, String> overrides) {
    return new ClusterProperties(2, 3, Map.of("db", 5000, "namenode-1", 5001, "namenode-2", 5002,
        "namenode-1.service", 5101, "namenode-2.service", 5102, "datanode-1", 5011, "datanode-2", 5012,
        "datanode-3", 5013, "namenode-2.http", 5202), overrides);
  }

  @Test
  void zonesPlaceDatanodesByHostNameAndGiveNamenodesTheirDomain() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterProperties zoned = new ClusterProperties(2, 3, 2, cluster(Map.of()).ports(), Map.of());
    ClusterConfigs.writeAll(layout, zoned);
    assertEquals(List.of(1, 2, 1), List.of(zoned.zoneOf(Role.datanode(1)), zoned.zoneOf(Role.datanode(2)),
        zoned.zoneOf(Role.datanode(3))));
    Configuration datanode2 = ClusterConfigs.load(layout.confDir(Role.datanode(2)));
    assertEquals("datanode-2.az2.localhost", datanode2.get("dfs.datanode.hostname"));
    Configuration namenode2 = ClusterConfigs.load(layout.confDir(Role.namenode(2)));
    assertEquals("2", namenode2.get("canopy.namenode.location-domain-id"));
    assertEquals("io.canopy.namenode.topology.NameTableMapping",
        namenode2.get("net.topology.node.switch.mapping.impl"));
    Path table = Path.of(namenode2.get("net.topology.table.file.name"));
    assertEquals(layout.topologyTable(), table);
    assertEquals(List.of("datanode-1.az1.localhost /az1/rack1", "datanode-2.az2.localhost /az2/rack1",
        "datanode-3.az1.localhost /az1/rack1"), Files.readAllLines(table).stream()
        .filter(line -> !line.startsWith("#")).toList());
    // the table, read by the mapping the namenode runs, places datanode 3 in zone 1
    assertEquals("/az1/rack1", io.canopy.namenode.topology.TopologyResolver.fromConf(namenode2)
        .resolve("127.0.0.1", "datanode-3.az1.localhost"));
    CliException refused = assertThrows(CliException.class,
        () -> ClusterConfigs.checkZoneOverrides(2, Map.of("dfs.datanode.hostname", "x")));
    assertTrue(refused.getMessage().contains("--azs 2"), refused.getMessage());
    ClusterConfigs.checkZoneOverrides(0, Map.of("dfs.datanode.hostname", "x"));
    // the client's configuration has no zone: a client says where it is
    assertNull(ClusterConfigs.load(layout.etc()).get("canopy.client.location-domain-id"));
    // a cluster without zones has neither keys nor table
    ClusterConfigs.writeAll(layout, cluster(Map.of()));
    assertTrue(Files.notExists(layout.topologyTable()));
    assertEquals(io.canopy.datanode.DataNodeLauncher.DEFAULTS.get("dfs.datanode.hostname"),
        ClusterConfigs.load(layout.confDir(Role.datanode(2))).get("dfs.datanode.hostname"));
  }

  @Test
  void overridesReachEveryProcessAndTheClient() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterConfigs.writeAll(layout, cluster(Map.of("dfs.blocksize", "1048576", "canopy.metadata.pool.size", "7",
        "io.file.buffer.size", "65536")));
    List<Path> confDirs = new ArrayList<>(List.of(layout.etc()));
    for (Role role : cluster(Map.of()).roles()) {
      if (role.kind() != Role.Kind.DATABASE) {
        confDirs.add(layout.confDir(role));
      }
    }
    assertEquals(6, confDirs.size());
    for (Path confDir : confDirs) {
      for (String file : ClusterConfigs.FILES) {
        assertTrue(Files.isRegularFile(confDir.resolve(file)), confDir.resolve(file) + " missing");
      }
      Configuration conf = ClusterConfigs.load(confDir);
      assertEquals("1048576", conf.get("dfs.blocksize"), confDir.toString());
      assertEquals("65536", conf.get("io.file.buffer.size"), confDir.toString());
      // Two namenodes: everyone reaches them through the nameservice.
      assertEquals("hdfs://canopy", conf.get("fs.defaultFS"), confDir.toString());
      assertEquals(List.of("127.0.0.1:5001", "127.0.0.1:5002"), Nameservice.rpcAddresses(conf, "canopy"),
          confDir.toString());
      // The metadata database's settings are the namenodes' alone.
      boolean namenode = confDir.getFileName().toString().startsWith("namenode");
      assertEquals(namenode ? "7" : null, conf.get("canopy.metadata.pool.size"), confDir.toString());
    }
    // Each override sits in the file its prefix belongs to.
    String hdfsSite = Files.readString(layout.etc().resolve(ClusterConfigs.HDFS_SITE));
    assertTrue(hdfsSite.contains("<name>dfs.blocksize</name><value>1048576</value>"), hdfsSite);
    String canopySite = Files.readString(layout.confDir(Role.namenode(1)).resolve(ClusterConfigs.CANOPY_SITE));
    assertTrue(canopySite.contains("<name>canopy.metadata.pool.size</name><value>7</value>"), canopySite);
    String coreSite = Files.readString(layout.etc().resolve(ClusterConfigs.CORE_SITE));
    assertTrue(coreSite.contains("<name>io.file.buffer.size</name><value>65536</value>"), coreSite);
  }

  @Test
  void eachProcessGetsItsOwnAddress() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterProperties cluster = cluster(Map.of());
    ClusterConfigs.writeAll(layout, cluster);
    assertEquals("127.0.0.1:5002",
        ClusterConfigs.load(layout.confDir(Role.namenode(2))).get("canopy.namenode.rpc-address"));
    assertEquals("127.0.0.1:5202",
        ClusterConfigs.load(layout.confDir(Role.namenode(2))).get("canopy.namenode.http-address"));
    assertEquals("127.0.0.1:0", ClusterConfigs.load(layout.confDir(Role.namenode(1))).get(
        "canopy.namenode.http-address"), "a namenode planned without an HTTP port serves on a free one");
    assertEquals("127.0.0.1:5102",
        ClusterConfigs.load(layout.confDir(Role.namenode(2))).get("canopy.namenode.servicerpc-address"));
    Configuration datanode = ClusterConfigs.load(layout.confDir(Role.datanode(2)));
    assertEquals("127.0.0.1:5012", datanode.get("dfs.datanode.address"));
    // Datanodes report to each namenode's service port; the client port refuses them.
    assertEquals("127.0.0.1:5101", datanode.get("dfs.namenode.servicerpc-address.canopy.nn1"));
    assertEquals("127.0.0.1:5102", datanode.get("dfs.namenode.servicerpc-address.canopy.nn2"));
    Configuration client = ClusterConfigs.load(layout.etc());
    assertNull(client.get("canopy.namenode.rpc-address"));
    assertNull(client.get("dfs.namenode.servicerpc-address.canopy.nn1"), "clients need no service address");
    assertEquals("3", client.get("dfs.replication"));
  }

  @Test
  void oneNamenodeClientsGoStraightToItDatanodesAlwaysUseTheNameservice() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterProperties one = new ClusterProperties(1, 1, Map.of("db", 5000, "namenode-1", 5001,
        "namenode-1.service", 5101, "datanode-1", 5011, "datanode-1.ipc", 5021), Map.of("dfs.heartbeat.interval", "1"));
    ClusterConfigs.writeAll(layout, one);
    Configuration client = ClusterConfigs.load(layout.etc());
    assertEquals("hdfs://127.0.0.1:5001", client.get("fs.defaultFS"));
    assertNull(client.get("dfs.nameservices"));
    Configuration datanode = ClusterConfigs.load(layout.confDir(Role.datanode(1)));
    assertEquals("hdfs://canopy", datanode.get("fs.defaultFS"));
    assertEquals(List.of("127.0.0.1:5001"), Nameservice.rpcAddresses(datanode, "canopy"));
    assertEquals(ClusterConfigs.failoverProxyProvider(), datanode.get("dfs.client.failover.proxy.provider.canopy"));
    // Everything the datanode runs with is in its files: refreshNamenodes re-reads them into a new Configuration.
    assertEquals("127.0.0.1:5011", datanode.get("dfs.datanode.address"));
    assertEquals("127.0.0.1:5021", datanode.get("dfs.datanode.ipc.address"));
    assertEquals(layout.dataNodeDir(1).toUri().toString(), datanode.get("dfs.datanode.data.dir"));
    assertEquals("127.0.0.1:0", datanode.get("dfs.datanode.http.address"));
    assertEquals("1", datanode.get("dfs.heartbeat.interval"), "an override wins over the datanode defaults");

    ClusterProperties two = one.withAddedNamenode(5002, 5102, 5202);
    assertEquals(2, two.namenodes());
    assertEquals(5102, two.servicePort(Role.namenode(2)));
    assertEquals(5202, two.httpPort(Role.namenode(2)).getAsInt());
    ClusterConfigs.writeAll(layout, two);
    client = ClusterConfigs.load(layout.etc());
    assertEquals("hdfs://canopy", client.get("fs.defaultFS"));
    assertEquals(List.of("127.0.0.1:5001", "127.0.0.1:5002"), Nameservice.rpcAddresses(client, "canopy"));
    assertEquals(CanopyFileSystem.class.getName(), client.get("fs.hdfs.impl"), "clients use Canopy's file system");
    Configuration stock = ClusterConfigs.load(layout.stockClientEtc());
    assertNull(stock.get("fs.hdfs.impl"), "stock clients keep HDFS's own");
    assertEquals(Nameservice.HADOOP_PROVIDER, stock.get("dfs.client.failover.proxy.provider.canopy"));
    assertEquals(List.of("127.0.0.1:5001", "127.0.0.1:5002"), Nameservice.rpcAddresses(stock, "canopy"));
    assertEquals(List.of("127.0.0.1:5001", "127.0.0.1:5002"),
        Nameservice.rpcAddresses(ClusterConfigs.load(layout.confDir(Role.datanode(1))), "canopy"));
    assertEquals("127.0.0.1:5002",
        ClusterConfigs.load(layout.confDir(Role.namenode(2))).get("canopy.namenode.rpc-address"));
    assertEquals("127.0.0.1:5202",
        ClusterConfigs.load(layout.confDir(Role.namenode(2))).get("canopy.namenode.http-address"));
    assertEquals("127.0.0.1:5102", ClusterConfigs.load(layout.confDir(Role.datanode(1)))
        .get("dfs.namenode.servicerpc-address.canopy.nn2"), "datanodes learn the new namenode's service port");
  }

  @Test
  void replicationFollowsSmallDatanodeCountsButOverridesWin() {
    ClusterProperties one = new ClusterProperties(1, 1, Map.of("db", 1, "namenode-1", 2, "namenode-1.service", 4,
        "datanode-1", 3), Map.of());
    assertEquals("1", ClusterConfigs.filesFor(null, one).get(ClusterConfigs.HDFS_SITE).get("dfs.replication"));
    ClusterProperties overridden = new ClusterProperties(1, 1, Map.of("db", 1, "namenode-1", 2,
        "namenode-1.service", 4, "datanode-1", 3), Map.of("dfs.replication", "2"));
    assertEquals("2",
        ClusterConfigs.filesFor(null, overridden).get(ClusterConfigs.HDFS_SITE).get("dfs.replication"));
  }

  @Test
  void securitySettingsCanopyDoesNotHonourAreRefused() {
    for (Map.Entry<String, String> setting : Map.of("hadoop.security.authentication", "kerberos",
        "hadoop.rpc.protection", "privacy", "dfs.data.transfer.protection", "integrity",
        "hadoop.security.authorization", "true").entrySet()) {
      CliException error = assertThrows(CliException.class,
          () -> ClusterConfigs.checkOverridable(setting.getKey(), setting.getValue()));
      assertEquals(2, error.exitCode());
      assertTrue(error.getMessage().contains(setting.getKey() + "=" + setting.getValue()), error.getMessage());
      assertTrue(error.getMessage().contains("\"simple\""), error.getMessage());
    }
    ClusterConfigs.checkOverridable("hadoop.security.authentication", "simple");
    ClusterConfigs.checkOverridable("hadoop.rpc.protection", "authentication");
    ClusterConfigs.checkOverridable("dfs.block.access.token.enable", "true"); // honoured (design 022)
    ClusterConfigs.checkOverridable("dfs.encrypt.data.transfer", "true"); // with block tokens (design 023)
  }

  @Test
  void aSecureClusterTakesKerberosSettingsButNotItsOwnKeys() {
    ClusterConfigs.checkOverridable("hadoop.rpc.protection", "authentication", true); // privacy is the default
    ClusterConfigs.checkOverridable("dfs.data.transfer.protection", "integrity", true);
    ClusterConfigs.checkOverridable("hadoop.security.authentication", "kerberos", true);
    // before the cluster's mode is known (canopy up's first check) the security keys are left to the second
    ClusterConfigs.checkOverridable("hadoop.security.authentication", "simple", null);
    ClusterConfigs.checkOverridable("hadoop.rpc.protection", "privacy", null);
    assertThrows(CliException.class, () -> ClusterConfigs.checkOverridable("hadoop.security.authentication", "simple",
        true), "a secure cluster cannot be told to authenticate simply");
    CliException plain = assertThrows(CliException.class,
        () -> ClusterConfigs.checkOverridable("hadoop.rpc.protection", "privacy", false));
    assertTrue(plain.getMessage().contains("canopy up --secure"), plain.getMessage());
    for (String key : List.of("hadoop.security.authentication", "dfs.namenode.keytab.file",
        "dfs.datanode.kerberos.principal", "ignore.secure.ports.for.testing")) {
      CliException error = assertThrows(CliException.class,
          () -> ClusterConfigs.checkOverridable(key, key.endsWith("authentication") ? "simple" : "x", true));
      assertEquals(2, error.exitCode());
      assertTrue(error.getMessage().contains("canopy up sets " + key), error.getMessage());
    }
  }

  @Test
  void aSecureClusterRunsItsKdcFirstAndEveryProcessLogsInFromItsKeytab() throws Exception {
    Map<String, Integer> ports = new java.util.TreeMap<>(cluster(Map.of()).ports());
    ports.put("kdc", 4999);
    ClusterProperties secure = new ClusterProperties(2, 3, ports, Map.of("hadoop.rpc.protection", "integrity"));
    assertTrue(secure.secure());
    assertEquals(Role.KDC, secure.roles().iterator().next(), "the KDC starts before everything else");
    assertTrue(!secure.withoutKdc().secure());
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterConfigs.writeAll(layout, secure);
    String principal = System.getProperty("user.name") + "/localhost@CANOPY.LOCAL";
    Configuration client = ClusterConfigs.load(layout.etc());
    assertEquals("kerberos", client.get("hadoop.security.authentication"));
    assertEquals(principal, client.get("dfs.namenode.kerberos.principal"));
    assertEquals("integrity", client.get("hadoop.rpc.protection"), "-D wins over the secure defaults");
    assertEquals("privacy", client.get("dfs.data.transfer.protection"));
    assertEquals(null, client.get("dfs.namenode.keytab.file"), "clients hold no keytab");
    Configuration namenode = ClusterConfigs.load(layout.confDir(Role.namenode(2)));
    assertEquals(layout.serviceKeytab().toString(), namenode.get("dfs.namenode.keytab.file"));
    assertEquals("true", namenode.get("dfs.block.access.token.enable"));
    Configuration datanode = ClusterConfigs.load(layout.confDir(Role.datanode(1)));
    assertEquals(layout.serviceKeytab().toString(), datanode.get("dfs.datanode.keytab.file"));
    assertEquals(principal, datanode.get("dfs.datanode.kerberos.principal"));
    assertEquals("true", datanode.get("ignore.secure.ports.for.testing"));
    assertTrue(!java.nio.file.Files.exists(layout.etc().resolve("kdc")), "the KDC reads no Hadoop configuration");
  }

  @Test
  void valuesAreEscaped() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterConfigs.writeAll(layout, cluster(Map.of("some.key", "a<b & \"c\"")));
    assertEquals("a<b & \"c\"", ClusterConfigs.load(layout.etc()).get("some.key"));
  }

  @Test
  void reservedAndMalformedKeysAreRefused() {
    for (String key : List.of("fs.defaultFS", "canopy.namenode.rpc-address", "dfs.datanode.data.dir",
        "dfs.datanode.address", "dfs.datanode.ipc.address", "dfs.nameservices", "dfs.ha.namenodes.canopy",
        "dfs.namenode.rpc-address.canopy.nn1", "dfs.client.failover.proxy.provider.canopy",
        "canopy.namenode.servicerpc-address", "dfs.namenode.servicerpc-address.canopy.nn1")) {
      CliException error = assertThrows(CliException.class, () -> ClusterConfigs.checkOverridable(key));
      assertEquals(2, error.exitCode());
      assertTrue(error.getMessage().contains(key), error.getMessage());
    }
    assertThrows(CliException.class, () -> ClusterConfigs.checkOverridable(""));
    assertThrows(CliException.class, () -> ClusterConfigs.checkOverridable("a b"));
    ClusterConfigs.checkOverridable("dfs.blocksize");
    ClusterConfigs.checkOverridable("canopy.metadata.jdbc.url"); // selects an external database
    CliException blank = assertThrows(CliException.class,
        () -> ClusterConfigs.checkOverridable("canopy.metadata.jdbc.url", " "));
    assertEquals(2, blank.exitCode());
    assertThrows(CliException.class, () -> ClusterConfigs.checkOverridable("canopy.namenode.metrics-file", "/x"));
  }

  @Test
  void anExternalDatabaseReplacesTheEmbeddedOne() throws Exception {
    String external = "jdbc:postgresql://127.0.0.1:6543/canopy";
    ClusterProperties cluster = new ClusterProperties(1, 1, Map.of("namenode-1", 5001, "namenode-1.service", 5101,
        "datanode-1", 5011),
        Map.of("canopy.metadata.jdbc.url", external, "canopy.metadata.jdbc.user", "canopy"));
    assertTrue(cluster.externalDatabase());
    for (Role role : cluster.roles()) {
      assertTrue(role.kind() != Role.Kind.DATABASE, "no embedded database role with an external database");
    }
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterConfigs.writeAll(layout, cluster);
    Configuration namenode = ClusterConfigs.load(layout.confDir(Role.namenode(1)));
    assertEquals(external, namenode.get("canopy.metadata.jdbc.url"));
    assertEquals("canopy", namenode.get("canopy.metadata.jdbc.user"));
    for (Path confDir : List.of(layout.etc(), layout.confDir(Role.datanode(1)))) {
      assertTrue(ClusterConfigs.load(confDir).getPropsWithPrefix("canopy.metadata.").isEmpty(), confDir.toString());
    }
  }

  @Test
  void onlyNamenodesKnowTheDatabaseLoginAndOnlyTheClusterOwnerReadsIt() throws Exception {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterProperties cluster = cluster(Map.of("canopy.metadata.lock-timeout-ms", "5000"));
    cluster.store(layout.propertiesFile());
    ClusterConfigs.writeAll(layout, cluster);
    Configuration namenode = ClusterConfigs.load(layout.confDir(Role.namenode(2)));
    assertEquals("jdbc:postgresql://127.0.0.1:5000/postgres", namenode.get("canopy.metadata.jdbc.url"));
    assertEquals("canopy_owner", namenode.get("canopy.metadata.jdbc.user"));
    assertEquals(layout.secretsDir().resolve("canopy_owner.password").toString(),
        namenode.get("canopy.metadata.jdbc.password-file"));
    assertEquals("5000", namenode.get("canopy.metadata.lock-timeout-ms"));
    assertEquals("rwx------", permissions(layout.confDir(Role.namenode(2))));
    for (String file : ClusterConfigs.FILES) {
      assertEquals("rw-------", permissions(layout.confDir(Role.namenode(2)).resolve(file)), file);
    }
    assertEquals("rw-------", permissions(layout.propertiesFile()), "-D overrides may hold a database login");
    for (Path confDir : List.of(layout.etc(), layout.confDir(Role.datanode(1)))) {
      assertTrue(ClusterConfigs.load(confDir).getPropsWithPrefix("canopy.metadata.").isEmpty(), confDir.toString());
    }
  }

  private static String permissions(Path path) throws java.io.IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  @Test
  void filesAreChosenByPrefix() {
    assertEquals(ClusterConfigs.HDFS_SITE, ClusterConfigs.fileFor("dfs.heartbeat.interval"));
    assertEquals(ClusterConfigs.CANOPY_SITE, ClusterConfigs.fileFor("canopy.namenode.handler.count"));
    assertEquals(ClusterConfigs.CORE_SITE, ClusterConfigs.fileFor("ipc.client.connect.timeout"));
  }
}
