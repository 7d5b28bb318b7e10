package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.UnregisteredNodeException;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.protocolPB.NamenodeProtocolTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who may speak the datanode protocol (issue 12, item 4): not a client on the client port, not a rogue on the
 * service port with a made-up namespace, an unregistered datanode id or another datanode's storage; while real
 * DataNodes keep working through a namenode restart and after being declared dead. A refused call changes no replica
 * record and the file still reads. The tests share one cluster and run in order (the last ones restart things).
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatanodeProtocolSurfaceTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final org.apache.hadoop.fs.Path FILE = new org.apache.hadoop.fs.Path("/surface/file");
  private static final long HEARTBEAT_RECHECK_MS = 500;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong("dfs.namenode.heartbeat.recheck-interval", HEARTBEAT_RECHECK_MS))
      .dataNodes(3).build();
  static byte[] data;
  static String blockPoolId;

  @BeforeAll
  static void writeAFile() throws Exception {
    data = TestFiles.randomBytes(2 * BLOCK_SIZE + 17, 12);
    DistributedFileSystem fs = CLUSTER.fileSystem();
    TestFiles.write(fs, FILE, data, BLOCK_SIZE);
    Await.until("every block of " + FILE + " has 3 replicas", Duration.ofSeconds(30),
        () -> replicaRows().size() == 3 * 3);
    blockPoolId = fs.getClient().getLocatedBlocks(FILE.toString(), 0).get(0).getBlock().getBlockPoolId();
  }

  @Test
  @Order(1)
  void datanodeCallsOnTheClientPortAreRefusedEvenWithARealRegistration() throws Exception {
    DataNode victim = CLUSTER.cluster().dataNodes().get(0);
    DatanodeRegistration real = victim.getDNRegistrationForBP(blockPoolId);
    String storage = storageOf(victim.getDatanodeUuid());
    List<List<String>> before = replicaRows();
    try (DatanodeProtocolClientSideTranslatorPB rogue = datanodeProtocol(CLUSTER.cluster().nameNode(0).address())) {
      IOException deleted = assertThrows(IOException.class,
          () -> rogue.blockReceivedAndDeleted(real, blockPoolId, deletions(storage)));
      assertTrue(deleted.getMessage().contains("canopy.namenode.servicerpc-address"), deleted.getMessage());
      assertThrows(IOException.class, () -> rogue.blockReport(real, blockPoolId, emptyReport(storage), context()));
    }
    assertNothingChanged(before);
  }

  @Test
  @Order(2)
  void forgedReportsOnTheServicePortAreRefused() throws Exception {
    DataNode victim = CLUSTER.cluster().dataNodes().get(0);
    DataNode other = CLUSTER.cluster().dataNodes().get(1);
    String storage = storageOf(victim.getDatanodeUuid());
    NamespaceInfo namespace = namespaceInfo(CLUSTER.cluster());
    List<List<String>> before = replicaRows();
    try (DatanodeProtocolClientSideTranslatorPB rogue =
        datanodeProtocol(serviceAddress(CLUSTER.cluster().nameNode(0)))) {
      // The real datanode's id, but a namespace of its own making: HDFS's verifyRequest refuses it.
      DatanodeRegistration madeUp = registration(victim.getDatanodeUuid(),
          new StorageInfo(DataNodeLayoutVersion.getCurrentLayoutVersion(), 4242, "rogue", 0, NodeType.DATA_NODE),
          namespace);
      assertRefusedAsUnregistered(() -> rogue.blockReceivedAndDeleted(madeUp, blockPoolId, deletions(storage)));
      assertRefusedAsUnregistered(() -> rogue.blockReport(madeUp, blockPoolId, emptyReport(storage), context()));
      // The namespace right (anyone can ask versionRequest), but a datanode id nobody registered.
      DatanodeRegistration unknown = registration(UUID.randomUUID().toString(), namespace, namespace);
      IOException unregistered = assertThrows(IOException.class,
          () -> rogue.blockReceivedAndDeleted(unknown, blockPoolId, deletions(storage)));
      assertTrue(unregistered.getMessage().contains("not registered"), unregistered.getMessage());
      assertThrows(IOException.class, () -> rogue.blockReport(unknown, blockPoolId, emptyReport(storage), context()));
      // A registered datanode reporting a storage recorded for another one.
      DatanodeRegistration impostor = registration(other.getDatanodeUuid(), namespace, namespace);
      assertRefusedAsUnregistered(() -> rogue.blockReceivedAndDeleted(impostor, blockPoolId, deletions(storage)));
      assertRefusedAsUnregistered(() -> rogue.blockReport(impostor, blockPoolId, emptyReport(storage), context()));
      assertRefusedAsUnregistered(() -> rogue.sendHeartbeat(impostor, new StorageReport[] {new StorageReport(
          new DatanodeStorage(storage, DatanodeStorage.State.NORMAL, StorageType.DISK), false, 1, 0, 1, 0, 0)},
          0, 0, 0, 0, 0, null, false, SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT));
    }
    assertNothingChanged(before);
    assertEquals(List.of(victim.getDatanodeUuid()), StoreQueries.column(CLUSTER.store(),
        "SELECT datanode_uuid FROM storages WHERE storage_id = '" + storage + "'"), "the storage has one owner");
    for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
      assertTrue(dataNode.isBPServiceAlive(blockPoolId), "real datanodes still serve the block pool");
    }
  }

  @Test
  @Order(3)
  void aDatanodeDeclaredDeadIsRefusedUntilItRegistersAgainAndThenWorks() throws Exception {
    DataNode dataNode = CLUSTER.cluster().dataNodes().get(2);
    String uuid = dataNode.getDatanodeUuid();
    String storage = storageOf(uuid);
    DataNodeTestUtils.setHeartbeatsDisabledForTests(dataNode, true);
    try {
      Await.until("the leader declares datanode " + uuid + " dead", Duration.ofSeconds(60),
          () -> !StoreQueries.column(CLUSTER.store(), "SELECT uuid FROM datanodes WHERE uuid = '" + uuid
              + "' AND declared_dead_at_ms <> 0").isEmpty());
      // The leader then removes the dead storage's replica rows, page by page: compare after it has finished.
      Await.until("the leader removes the replicas of dead storage " + storage, Duration.ofSeconds(60),
          () -> StoreQueries.column(CLUSTER.store(),
              "SELECT block_id FROM replicas WHERE storage_id = '" + storage + "'").isEmpty());
      List<List<String>> before = replicaRows();
      DatanodeRegistration stale = dataNode.getDNRegistrationForBP(blockPoolId);
      try (DatanodeProtocolClientSideTranslatorPB late =
          datanodeProtocol(serviceAddress(CLUSTER.cluster().nameNode(0)))) {
        IOException refused = assertThrows(IOException.class,
            () -> late.blockReport(stale, blockPoolId, emptyReport(storage), context()));
        // Not UnregisteredNodeException: on that one a stock DataNode stops talking to the namenode for good.
        assertNotEquals(UnregisteredNodeException.class.getName(), remoteClass(refused), refused.toString());
        assertTrue(refused.getMessage().contains("declared dead"), refused.getMessage());
      }
      assertEquals(before, replicaRows(), "a refused report changes nothing");
      // The datanode's own full report meets the same refusal and must leave it serving.
      dataNode.triggerBlockReport(new BlockReportOptions.Factory().setIncremental(false).build());
      Thread.sleep(2_000);
      assertTrue(dataNode.isBPServiceAlive(blockPoolId), "the refused datanode still serves the block pool");
    } finally {
      DataNodeTestUtils.setHeartbeatsDisabledForTests(dataNode, false);
    }
    Await.until("datanode " + uuid + " registers again and reports its replicas", Duration.ofSeconds(60),
        () -> StoreQueries.column(CLUSTER.store(), "SELECT uuid FROM datanodes WHERE uuid = '" + uuid
            + "' AND declared_dead_at_ms = 0").size() == 1 && replicaRows().size() == 3 * 3);
    assertDatanodesWork("/surface/after-dead");
  }

  @Test
  @Order(4)
  void datanodesKeepWorkingThroughANamenodeRestart() throws Exception {
    CLUSTER.cluster().restartNameNode(0);
    // Connections to the old process die with it: wait for a new client to reach the new one.
    Await.until("the restarted namenode answers", Duration.ofSeconds(30), () -> {
      try {
        return CLUSTER.cluster().fileSystem().exists(FILE);
      } catch (IOException e) {
        return false;
      }
    });
    assertDatanodesWork("/surface/after-restart");
    assertArrayEquals(data, TestFiles.read(CLUSTER.cluster().fileSystem(), FILE));
  }

  /**
   * Each namenode's datanode view is a cache reloaded once per heartbeat interval (here 60 s): a datanode that
   * registered and heartbeated through one namenode a moment ago is heard at once by another.
   */
  @Test
  @Order(5)
  void aRegistrationThroughAnotherNamenodeIsHeardAtOnce() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong("dfs.heartbeat.interval", 60);
    try (MiniCanopyCluster two = MiniCanopyCluster.start(CLUSTER.directory().resolve("two"), conf, 2, 0)) {
      NamespaceInfo namespace = namespaceInfo(two);
      DatanodeRegistration registration = registration(UUID.randomUUID().toString(), namespace, namespace);
      String storage = DatanodeStorage.generateUuid();
      try (DatanodeProtocolClientSideTranslatorPB first = datanodeProtocol(two.nameNode(0).serviceAddress(), conf);
          DatanodeProtocolClientSideTranslatorPB second = datanodeProtocol(two.nameNode(1).serviceAddress(), conf)) {
        first.registerDatanode(registration);
        first.sendHeartbeat(registration, new StorageReport[] {new StorageReport(new DatanodeStorage(storage,
            DatanodeStorage.State.NORMAL, StorageType.DISK), false, 1, 0, 1, 0, 0)}, 0, 0, 0, 0, 0, null, false,
            SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT);
        second.blockReceivedAndDeleted(registration, namespace.getBlockPoolID(), new StorageReceivedDeletedBlocks[] {
            new StorageReceivedDeletedBlocks(new DatanodeStorage(storage), new ReceivedDeletedBlockInfo[0])});
        second.blockReport(registration, namespace.getBlockPoolID(), emptyReport(storage), context());
      }
    }
  }

  /** A new file with every block on all three datanodes (their reports accepted), read back. */
  private static void assertDatanodesWork(String name) throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(name);
    byte[] bytes = TestFiles.randomBytes(BLOCK_SIZE + 5, name.hashCode());
    TestFiles.write(fs, path, bytes, BLOCK_SIZE);
    Await.until("both blocks of " + path + " have 3 replicas", Duration.ofSeconds(60), () -> {
      List<LocatedBlock> blocks = fs.getClient().getLocatedBlocks(path.toString(), 0).getLocatedBlocks();
      return blocks.size() == 2 && blocks.stream().allMatch(block -> block.getLocations().length == 3);
    });
    assertArrayEquals(bytes, TestFiles.read(fs, path));
  }

  private static void assertNothingChanged(List<List<String>> before) throws IOException {
    assertEquals(before, replicaRows(), "a refused datanode call changes no replica record");
    assertArrayEquals(data, TestFiles.read(CLUSTER.cluster().fileSystem(), FILE));
  }

  private interface Call {
    void run() throws IOException;
  }

  private static void assertRefusedAsUnregistered(Call call) {
    IOException refused = assertThrows(IOException.class, call::run);
    assertEquals(UnregisteredNodeException.class.getName(), remoteClass(refused), refused.toString());
  }

  private static String remoteClass(IOException e) {
    return e instanceof RemoteException remote ? remote.getClassName() : e.getClass().getName();
  }

  /** Where datanodes send the datanode protocol. */
  private static InetSocketAddress serviceAddress(NameNode nameNode) {
    return nameNode.serviceAddress();
  }

  private static DatanodeProtocolClientSideTranslatorPB datanodeProtocol(InetSocketAddress address)
      throws IOException {
    return datanodeProtocol(address, CLUSTER.cluster().conf());
  }

  private static DatanodeProtocolClientSideTranslatorPB datanodeProtocol(InetSocketAddress address,
      Configuration conf) throws IOException {
    return new DatanodeProtocolClientSideTranslatorPB(address, new Configuration(conf));
  }

  /** What any client learns from NamenodeProtocol.versionRequest on the client port (NNThroughputBenchmark asks). */
  private static NamespaceInfo namespaceInfo(MiniCanopyCluster of) throws IOException {
    NamenodeProtocol namenode = NameNodeProxies.createNonHAProxy(new Configuration(of.conf()),
        of.nameNode(0).address(), NamenodeProtocol.class, UserGroupInformation.getCurrentUser(), false)
        .getProxy();
    try {
      return namenode.versionRequest();
    } finally {
      ((NamenodeProtocolTranslatorPB) namenode).close();
    }
  }

  /** A registration as a rogue makes one: {@code storageInfo} claims a namespace, {@code namespace} is the real one. */
  private static DatanodeRegistration registration(String uuid, StorageInfo storageInfo, NamespaceInfo namespace) {
    DatanodeID id = new DatanodeID("127.0.0.1", "127.0.0.1", uuid, 1, 2, 3, 4);
    DatanodeRegistration registration = new DatanodeRegistration(id, storageInfo, new ExportedBlockKeys(),
        VersionInfo.getVersion());
    registration.setNamespaceInfo(namespace); // the client side reads it to encode block reports
    return registration;
  }

  /** "Deleted" for every block of the test file, reported on {@code storage}. */
  private static StorageReceivedDeletedBlocks[] deletions(String storage) throws IOException {
    List<ReceivedDeletedBlockInfo> deleted = new ArrayList<>();
    for (LocatedBlock block : CLUSTER.cluster().fileSystem().getClient().getLocatedBlocks(FILE.toString(), 0)
        .getLocatedBlocks()) {
      deleted.add(new ReceivedDeletedBlockInfo(block.getBlock().getLocalBlock(),
          ReceivedDeletedBlockInfo.BlockStatus.DELETED_BLOCK, null));
    }
    return new StorageReceivedDeletedBlocks[] {new StorageReceivedDeletedBlocks(new DatanodeStorage(storage),
        deleted.toArray(new ReceivedDeletedBlockInfo[0]))};
  }

  private static StorageBlockReport[] emptyReport(String storage) {
    return new StorageBlockReport[] {new StorageBlockReport(new DatanodeStorage(storage), BlockListAsLongs.EMPTY)};
  }

  private static BlockReportContext context() {
    return new BlockReportContext(1, 0, System.nanoTime(), 0);
  }

  /** The storage of a datanode that holds replicas of the test file. */
  private static String storageOf(String datanodeUuid) throws IOException {
    List<String> storages = StoreQueries.column(CLUSTER.store(), "SELECT DISTINCT r.storage_id FROM replicas r "
        + "JOIN storages s ON s.storage_id = r.storage_id WHERE s.datanode_uuid = '" + datanodeUuid + "'");
    assertEquals(1, storages.size(), "datanode " + datanodeUuid + " holds replicas on one storage: " + storages);
    return storages.get(0);
  }

  private static List<List<String>> replicaRows() throws IOException {
    return StoreQueries.rows(CLUSTER.store(), "SELECT r.block_id, r.storage_id FROM replicas r JOIN inodes i ON i.id = "
        + "r.inode_id WHERE i.name = 'file' ORDER BY r.block_id, r.storage_id");
  }
}
