package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyClientCalls;
import io.canopy.client.CanopyFailoverProxyProvider;
import io.canopy.client.ClientConfig;
import io.canopy.client.Nameservice;
import io.canopy.namenode.topology.NameTableMapping;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.InvalidRequestException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that declares its network location ({@code canopy.client.network-location}) is placed by it in its stock
 * calls too, which carry no location (design 019): every block a zone-3 client writes with replication 1 lands in
 * zone 3, and every getBlockLocations a zone-2 client makes (the later windows of a long read) lists zone 2's replica
 * first. All processes share 127.0.0.1, so the address alone places no one: without the declaration both would be
 * random.
 */
@Timeout(180)
class DeclaredClientLocationTest {
  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final int BLOCKS = 6;
  private static final int LOOKUPS = 30;

  @TempDir
  Path directory;

  @Test
  void aDeclaredLocationPlacesTheWritersFirstReplicaAndOrdersEveryLookup() throws Exception {
    Path table = directory.resolve("topology.table");
    Files.writeString(table, String.join("\n", "dn-1.az1.localhost /az1/rack1", "dn-2.az2.localhost /az2/rack1",
        "dn-3.az3.localhost /az3/rack1", ""));
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, NameTableMapping.class.getName());
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.toString());
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 0)) {
      for (int zone = 1; zone <= 3; zone++) {
        cluster.startDataNode("dn-" + zone + ".az" + zone + ".localhost");
      }
      cluster.waitForDataNodes(3, BOUND);
      Map<String, String> zoneOfDatanode = new HashMap<>();
      for (DatanodeInfo datanode : cluster.fileSystem().getDataNodeStats()) {
        zoneOfDatanode.put(datanode.getDatanodeUuid(), datanode.getNetworkLocation().split("/")[1]);
      }
      assertEquals(3, zoneOfDatanode.size(), zoneOfDatanode.toString());

      org.apache.hadoop.fs.Path single = new org.apache.hadoop.fs.Path("/declared/single");
      byte[] data = TestFiles.randomBytes(BLOCKS * BLOCK_SIZE, 3);
      try (DistributedFileSystem writer = client(cluster, conf, 3)) {
        // the declaration goes out in the background on the first call: wait until it has arrived
        writer.getFileStatus(new org.apache.hadoop.fs.Path("/"));
        Await.until("the zone-3 client's declaration reached the namenode", BOUND,
            () -> cluster.nameNode(0).clientLocations().size() > 0);
        TestFiles.write(writer, single, data, (short) 1, BLOCK_SIZE);
        List<LocatedBlock> blocks = writer.getClient().getLocatedBlocks(single.toString(), 0).getLocatedBlocks();
        assertEquals(BLOCKS, blocks.size());
        for (LocatedBlock block : blocks) {
          assertEquals("az3", zoneOfDatanode.get(block.getLocations()[0].getDatanodeUuid()),
              "the only replica of block " + block.getBlock() + " is in the writer's zone");
        }
      }

      org.apache.hadoop.fs.Path spread = new org.apache.hadoop.fs.Path("/declared/spread");
      TestFiles.write(cluster.fileSystem(), spread, data, (short) 3, BLOCK_SIZE);
      try (DistributedFileSystem reader = client(cluster, conf, 2)) {
        // this JVM's clients share one RPC client id: the zone-2 declaration replaces the zone-3 one once it arrives
        Await.until("the zone-2 client's declaration reached the namenode", BOUND, () -> reader.getClient()
            .getLocatedBlocks(spread.toString(), 0).getLocatedBlocks().stream().allMatch(block -> "az2".equals(
                zoneOfDatanode.get(block.getLocations()[0].getDatanodeUuid()))));
        for (int lookup = 0; lookup < LOOKUPS; lookup++) {
          for (LocatedBlock block : reader.getClient().getLocatedBlocks(spread.toString(), 0).getLocatedBlocks()) {
            assertEquals(3, block.getLocations().length);
            assertEquals("az2", zoneOfDatanode.get(block.getLocations()[0].getDatanodeUuid()),
                "lookup " + lookup + ": the reader's zone first for block " + block.getBlock());
          }
        }
        assertArrayEquals(data, TestFiles.read(reader, spread));
      }
      assertEquals(1, cluster.nameNode(0).clientLocations().size(), "one JVM, one RPC client id, one declaration");
      try (CanopyClientCalls calls = new CanopyClientCalls(conf, cluster.nameNode(0).address())) {
        // one namenode's raw calls: its refusal comes as a RemoteException (Canopy's client unwraps above its retries)
        RemoteException refused = assertThrows(RemoteException.class, () -> calls.declareLocation("az2"));
        assertEquals(InvalidRequestException.class.getName(), refused.getClassName());
        assertTrue(refused.getMessage().contains("'az2'"), refused.getMessage());
      }
      assertEquals(1, cluster.nameNode(0).clientLocations().size(), "a refused declaration records nothing");
    }
  }

  /** A stock client of the cluster's nameservice through Canopy's failover provider, declaring itself in zone {@code zone}. */
  private static DistributedFileSystem client(MiniCanopyCluster cluster, Configuration conf, int zone)
      throws java.io.IOException {
    Configuration clientConf = new Configuration(conf);
    Nameservice.configure(clientConf, Nameservice.DEFAULT_NAME,
        List.of(NetUtils.getHostPortString(cluster.nameNode(0).address())),
        CanopyFailoverProxyProvider.class.getName());
    clientConf.set(ClientConfig.NETWORK_LOCATION, "/az" + zone + "/client");
    clientConf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    return (DistributedFileSystem) FileSystem.newInstance(URI.create("hdfs://" + Nameservice.DEFAULT_NAME),
        clientConf);
  }
}
