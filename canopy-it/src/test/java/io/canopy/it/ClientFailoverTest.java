package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFailoverProxyProvider;
import io.canopy.client.ClientConfig;
import io.canopy.client.NamenodeList;
import io.canopy.client.NamenodeListClient;
import io.canopy.client.Nameservice;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.ha.ClientHAProxyFactory;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.retry.RetryPolicies;
import org.apache.hadoop.io.retry.RetryProxy;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clients of a three-namenode cluster through the {@code hdfs://canopy} nameservice: a namenode stopped under a
 * running workload costs no operation (Canopy's provider and Hadoop's own), round-robin spreads calls, a reply lost
 * on one namenode is answered from the shared retry cache on another, and namenodes list each other.
 *
 * <p>The datanodes of {@link MiniCanopyCluster} report to the namenodes started before them; the tests keep
 * namenode 0 running so they always have one, and give the clients that see a namenode die two others. On loopback
 * a namenode is known by its port, whatever host form its descriptor uses.
 */
@Timeout(120)
class ClientFailoverTest {
  private static final String NAMESERVICE = "canopy";
  private static final int DATANODES = 3;
  private static final List<String> WORKLOAD_OPERATIONS = List.of("create", "addBlock", "complete",
      "getBlockLocations", "getFileInfo", "rename", "delete");
  private static final Map<Integer, String> ADDRESSES = new ConcurrentHashMap<>();

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(3).dataNodes(DATANODES)
      .build();

  @BeforeAll
  static void knowTheAddresses() {
    for (int i = 0; i < CLUSTER.cluster().nameNodeCount(); i++) {
      address(i);
    }
  }

  @Test
  @Timeout(60)
  void aCanopyClientLosesNoOperationWhenItsNamenodeStops() throws Exception {
    List<Integer> candidates = twoRunningNameNodesOtherThanTheFirst();
    Configuration conf = clientConf(candidates, CanopyFailoverProxyProvider.class.getName());
    conf.setLong(ClientConfig.RANDOM_SEED, 11);
    runWorkloadAndStopTheServingNamenode(conf, candidates, "/failover/canopy");
  }

  @Test
  @Timeout(60)
  void anUnmodifiedHadoopClientLosesNoOperationWhenItsNamenodeStops() throws Exception {
    List<Integer> candidates = twoRunningNameNodesOtherThanTheFirst();
    runWorkloadAndStopTheServingNamenode(clientConf(candidates, Nameservice.HADOOP_PROVIDER), candidates,
        "/failover/hadoop");
  }

  /**
   * A namenode's answer is not a lost connection: opening a missing file through Canopy's client over the nameservice
   * fails at once with FileNotFoundException, rather than failing over and retrying on every namenode with sleeps in
   * between (found by the nemesis: the error was unwrapped below the retries, where it looked like a network error).
   */
  @Test
  @Timeout(60)
  void aMissingFileIsReportedAtOnceNotRetriedOnEveryNamenode() throws IOException {
    Configuration conf = clientConf(runningNameNodes(), CanopyFailoverProxyProvider.class.getName());
    conf.set("fs.hdfs.impl", io.canopy.client.CanopyFileSystem.class.getName());
    try (FileSystem fs = FileSystem.newInstance(Nameservice.uri(NAMESERVICE), conf)) {
      long start = System.nanoTime();
      assertThrows(java.io.FileNotFoundException.class, () -> fs.open(new org.apache.hadoop.fs.Path("/missing")));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < 3_000, "answered in " + millis + " ms");
    }
  }

  @Test
  @Timeout(60)
  void roundRobinSpreadsCallsOverTheConfiguredNamenodes() throws IOException {
    List<Integer> running = runningNameNodes();
    Configuration conf = clientConf(running, CanopyFailoverProxyProvider.class.getName());
    conf.set(ClientConfig.NAMENODE_SELECTION, "round-robin");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0); // the configured list only
    org.apache.hadoop.fs.Path probe = new org.apache.hadoop.fs.Path("/spread/configured");
    try (FileSystem fs = FileSystem.newInstance(Nameservice.uri(NAMESERVICE), conf)) {
      assertTrue(fs.mkdirs(probe));
      assertEachServed(running, 20, () -> assertTrue(fs.getFileStatus(probe).isDirectory()));
    }
  }

  @Test
  @Timeout(60)
  void aClientGivenOneNamenodeLearnsTheOthersAndSpreadsOverThem() throws Exception {
    twoRunningNameNodesOtherThanTheFirst();
    List<Integer> running = runningNameNodes();
    awaitListedBy(0, running);
    Configuration conf = clientConf(List.of(0), CanopyFailoverProxyProvider.class.getName());
    conf.set(ClientConfig.NAMENODE_SELECTION, "round-robin");
    org.apache.hadoop.fs.Path probe = new org.apache.hadoop.fs.Path("/spread/learned");
    try (FileSystem fs = FileSystem.newInstance(Nameservice.uri(NAMESERVICE), conf)) {
      assertTrue(fs.mkdirs(probe)); // the first call starts the first list refresh, in the background
      int other = running.get(1);
      long before = metric(other, "getFileInfo").operations();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (metric(other, "getFileInfo").operations() == before) {
        assertTrue(System.nanoTime() < deadline, "the client never called namenode " + other
            + ", which namenode 0 lists");
        assertTrue(fs.getFileStatus(probe).isDirectory());
      }
      assertEachServed(running, 20, () -> assertTrue(fs.getFileStatus(probe).isDirectory()));
    }
  }

  @Test
  @Timeout(60)
  void aReplyLostOnOneNamenodeIsAnsweredFromTheSharedRetryCacheOnAnother() throws IOException {
    List<Integer> candidates = twoRunningNameNodesOtherThanTheFirst();
    Configuration conf = clientConf(candidates, CanopyFailoverProxyProvider.class.getName());
    conf.set(ClientConfig.NAMENODE_SELECTION, "sticky");
    conf.setLong(ClientConfig.NAMENODE_LIST_REFRESH_MS, 0);
    DistributedFileSystem setup = CLUSTER.cluster().fileSystem(0);
    TestFiles.write(setup, new org.apache.hadoop.fs.Path("/lost/deleted"), new byte[] {1}, 1024);
    TestFiles.write(setup, new org.apache.hadoop.fs.Path("/lost/renamed"), new byte[] {2}, 1024);
    ReplyLosingFactory losing = new ReplyLosingFactory(Set.of("delete", "rename", "create"));
    ClientProtocol namenode = (ClientProtocol) RetryProxy.create(ClientProtocol.class,
        new CanopyFailoverProxyProvider<>(conf, Nameservice.uri(NAMESERVICE), ClientProtocol.class, losing),
        RetryPolicies.failoverOnNetworkException(RetryPolicies.TRY_ONCE_THEN_FAIL, 15, 10, 0, 0));
    try {
      Map<Integer, OperationMetrics.Snapshot> before = metrics(candidates, "delete");
      assertTrue(namenode.delete("/lost/deleted", false), "the first run's answer, though the file is gone now");
      assertRanOnceAndWasAnsweredFromTheRetryCacheElsewhere("delete", candidates, before);

      before = metrics(candidates, "rename");
      assertTrue(namenode.rename("/lost/renamed", "/lost/renamed-to"));
      assertRanOnceAndWasAnsweredFromTheRetryCacheElsewhere("rename", candidates, before);

      before = metrics(candidates, "create");
      HdfsFileStatus created = namenode.create("/lost/created", FsPermission.getFileDefault(), "lost-reply-client",
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1024 * 1024,
          CryptoProtocolVersion.supported(), null, null);
      assertRanOnceAndWasAnsweredFromTheRetryCacheElsewhere("create", candidates, before);
      assertNotNull(created, "the first run's file status");
      assertEquals(setup.getClient().getFileInfo("/lost/created").getFileId(), created.getFileId());
      assertTrue(namenode.complete("/lost/created", "lost-reply-client", null, created.getFileId()));
    } finally {
      RPC.stopProxy(namenode);
    }
    assertEquals(Set.of(), losing.pending(), "every planned reply was lost");
    assertFalse(setup.exists(new org.apache.hadoop.fs.Path("/lost/deleted")));
    assertFalse(setup.exists(new org.apache.hadoop.fs.Path("/lost/renamed")));
    assertTrue(setup.exists(new org.apache.hadoop.fs.Path("/lost/renamed-to")));
    assertEquals(0, setup.getFileStatus(new org.apache.hadoop.fs.Path("/lost/created")).getLen());
  }

  @Test
  @Timeout(60)
  void everyNamenodeListsTheLiveNamenodesThroughGenericRefreshProtocol() throws IOException {
    runningNameNodes().forEach(ClientFailoverTest::address);
    Set<Integer> everyNamenode = new HashSet<>();
    ADDRESSES.values().forEach(address -> everyNamenode.add(port(address)));
    NamenodeListClient lists = new NamenodeListClient(CLUSTER.cluster().conf(), UserGroupInformation.getCurrentUser(),
        10_000);
    for (int index : runningNameNodes()) {
      List<NamenodeList.Entry> entries = lists.fetch(address(index));
      Set<Integer> listed = new HashSet<>();
      entries.forEach(entry -> listed.add(port(entry.rpcAddress())));
      assertTrue(listed.contains(port(address(index))), "namenode " + index + " lists itself: " + entries);
      assertTrue(everyNamenode.containsAll(listed), "namenode " + index + " lists namenodes of this cluster: "
          + entries + ", cluster ports: " + everyNamenode);
      assertEquals(1, entries.stream().filter(NamenodeList.Entry::leader).count(), "one leader: " + entries);
    }

    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    InetSocketAddress first = CLUSTER.cluster().nameNode(0).address();
    try (GenericRefreshProtocolClientSideTranslatorPB refresh = new GenericRefreshProtocolClientSideTranslatorPB(
        RPC.getProxy(GenericRefreshProtocolPB.class, RPC.getProtocolVersion(GenericRefreshProtocolPB.class), first,
            UserGroupInformation.getCurrentUser(), conf, NetUtils.getDefaultSocketFactory(conf)))) {
      RemoteException unknown = assertThrows(RemoteException.class,
          () -> refresh.refresh("userToGroupsMappings", new String[0]));
      assertEquals(IllegalArgumentException.class.getName(), unknown.getClassName());
      assertTrue(unknown.getMessage().contains("'" + NamenodeList.IDENTIFIER + "'"), unknown.getMessage());
    }

    List<Integer> spare = twoRunningNameNodesOtherThanTheFirst();
    CLUSTER.cluster().stopNameNode(spare.get(0));
    String stopped = address(spare.get(0));
    IOException gone = assertThrows(IOException.class, () -> lists.fetch(stopped));
    assertFalse(gone instanceof RemoteException, gone.toString());
    assertTrue(gone.getMessage().contains(stopped.substring(stopped.indexOf(':'))),
        "the error names the namenode's port: " + gone.getMessage());
  }

  /**
   * Runs the workload through {@code conf}'s client, stops the candidate namenode that serves it once a third of
   * the work is acknowledged, then requires no failed operation and every acknowledged file intact.
   */
  private static void runWorkloadAndStopTheServingNamenode(Configuration conf, List<Integer> candidates,
      String root) throws Exception {
    Map<Integer, Long> before = new HashMap<>();
    candidates.forEach(index -> before.put(index, calls(index)));
    FailoverWorkload workload;
    int acknowledgedAtStop;
    int stopped;
    try (FileSystem fs = FileSystem.newInstance(Nameservice.uri(NAMESERVICE), conf)) {
      workload = new FailoverWorkload(fs, new org.apache.hadoop.fs.Path(root), 3, 30);
      workload.start();
      workload.awaitOperations(40, 40_000);
      stopped = candidates.stream().max((a, b) -> Long.compare(calls(a) - before.get(a), calls(b) - before.get(b)))
          .orElseThrow();
      assertTrue(calls(stopped) > before.get(stopped), "namenode " + stopped + " served the client");
      for (int other : candidates) {
        if (other != stopped) {
          assertEquals(before.get(other), calls(other), "a sticky client stays on namenode " + stopped);
        }
      }
      acknowledgedAtStop = workload.operations();
      CLUSTER.cluster().stopNameNode(stopped);
      workload.join(45_000);
    }
    assertEquals(List.of(), workload.failures(), "failed operations after stopping namenode " + stopped);
    assertTrue(workload.operations() > acknowledgedAtStop + 10, "the workload went on after the stop: "
        + acknowledgedAtStop + " operations before, " + workload.operations() + " in all");
    assertTrue(workload.expectedFiles() > 30);
    assertEquals(List.of(), workload.verify(CLUSTER.cluster().fileSystem(0)));
    long retryCacheAnswers = 0;
    for (int index : runningNameNodes()) {
      retryCacheAnswers += CLUSTER.cluster().nameNode(index).runner().metrics().snapshot().values().stream()
          .mapToLong(OperationMetrics.Snapshot::retryCacheAnswers).sum();
    }
    System.out.println(root + ": namenode " + stopped + " stopped after " + acknowledgedAtStop + " of "
        + workload.operations() + " operations; retry-cache answers on the running namenodes so far: "
        + retryCacheAnswers);
  }

  private interface Call {
    void run() throws IOException;
  }

  /** Makes {@code perNamenode} calls per namenode and requires each namenode to have served exactly that many. */
  private static void assertEachServed(List<Integer> nameNodes, int perNamenode, Call call) throws IOException {
    Map<Integer, Long> before = new HashMap<>();
    nameNodes.forEach(index -> before.put(index, metric(index, "getFileInfo").operations()));
    for (int i = 0; i < perNamenode * nameNodes.size(); i++) {
      call.run();
    }
    for (int index : nameNodes) {
      assertEquals(perNamenode, metric(index, "getFileInfo").operations() - before.get(index),
          "getFileInfo calls served by namenode " + index + " of " + nameNodes);
    }
  }

  /** Waits until namenode {@code index}'s membership view lists exactly the namenodes {@code expected}. */
  private static void awaitListedBy(int index, List<Integer> expected) throws Exception {
    Set<Integer> wanted = new HashSet<>();
    expected.forEach(i -> wanted.add(port(address(i))));
    NamenodeListClient lists = new NamenodeListClient(CLUSTER.cluster().conf(), UserGroupInformation.getCurrentUser(),
        10_000);
    long deadline = System.nanoTime() + 20_000_000_000L;
    Set<Integer> listed = Set.of();
    while (!listed.equals(wanted)) {
      assertTrue(System.nanoTime() < deadline, "namenode " + index + " lists " + listed + ", not " + wanted);
      Thread.sleep(100);
      listed = new HashSet<>();
      for (NamenodeList.Entry entry : lists.fetch(address(index))) {
        listed.add(port(entry.rpcAddress()));
      }
    }
  }

  private static int port(String hostAndPort) {
    return Integer.parseInt(hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1));
  }

  /**
   * Indices of two running namenodes other than namenode 0, started when fewer are running, each seeing every
   * datanode (a namenode reloads its datanode view once per heartbeat interval).
   */
  private static List<Integer> twoRunningNameNodesOtherThanTheFirst() throws IOException {
    List<Integer> spare = new ArrayList<>(runningNameNodes());
    spare.remove(Integer.valueOf(0));
    while (spare.size() < 2) {
      CLUSTER.cluster().startNameNode();
      spare.add(CLUSTER.cluster().nameNodeCount() - 1);
    }
    for (int index : spare.subList(0, 2)) {
      awaitDatanodesSeenBy(index);
    }
    return spare.subList(0, 2);
  }

  private static void awaitDatanodesSeenBy(int index) throws IOException {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem(index);
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (fs.getDataNodeStats(DatanodeReportType.LIVE).length < DATANODES) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("namenode " + index + " does not see the " + DATANODES + " datanodes");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
  }

  private static List<Integer> runningNameNodes() {
    List<Integer> running = new ArrayList<>();
    for (int i = 0; i < CLUSTER.cluster().nameNodeCount(); i++) {
      if (!CLUSTER.cluster().isStopped(i)) {
        running.add(i);
      }
    }
    return running;
  }

  /** host:port of namenode {@code index}, remembered so it is still known once the namenode is stopped. */
  private static String address(int index) {
    return ADDRESSES.computeIfAbsent(index, i -> {
      InetSocketAddress address = CLUSTER.cluster().nameNode(i).address();
      return address.getAddress().getHostAddress() + ":" + address.getPort();
    });
  }

  private static Configuration clientConf(List<Integer> nameNodes, String provider) {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    Nameservice.configure(conf, NAMESERVICE, nameNodes.stream().map(ClientFailoverTest::address).toList(),
        provider);
    return conf;
  }

  /**
   * Calls of the workload's kinds namenode {@code index} served so far (answered, failed or answered from the retry
   * cache); datanode traffic, which every namenode gets, is left out.
   */
  private static long calls(int index) {
    long calls = 0;
    for (String operation : WORKLOAD_OPERATIONS) {
      OperationMetrics.Snapshot snapshot = metric(index, operation);
      calls += snapshot.operations() + snapshot.failures() + snapshot.retryCacheAnswers();
    }
    return calls;
  }

  private static OperationMetrics.Snapshot metric(int index, String operation) {
    return CLUSTER.cluster().nameNode(index).runner().metrics().snapshot().getOrDefault(operation,
        OperationMetrics.Snapshot.ZERO);
  }

  private static Map<Integer, OperationMetrics.Snapshot> metrics(List<Integer> nameNodes, String operation) {
    Map<Integer, OperationMetrics.Snapshot> metrics = new HashMap<>();
    nameNodes.forEach(index -> metrics.put(index, metric(index, operation)));
    return metrics;
  }

  /** The operation committed on one namenode, and the retry of the call was answered from the cache on another. */
  private static void assertRanOnceAndWasAnsweredFromTheRetryCacheElsewhere(String operation,
      List<Integer> nameNodes, Map<Integer, OperationMetrics.Snapshot> before) {
    Integer ranOn = null;
    Integer answeredOn = null;
    for (int index : nameNodes) {
      OperationMetrics.Snapshot delta = metric(index, operation).minus(before.get(index));
      if (delta.operations() > 0) {
        assertEquals(null, ranOn, operation + " ran on two namenodes");
        assertEquals(1, delta.operations(), operation + " ran more than once on namenode " + index);
        ranOn = index;
      }
      if (delta.retryCacheAnswers() > 0) {
        assertEquals(1, delta.retryCacheAnswers(), operation + " retry answered more than once");
        answeredOn = index;
      }
    }
    assertNotNull(ranOn, operation + " ran on no namenode");
    assertNotNull(answeredOn, "no namenode answered the retried " + operation + " from the retry cache");
    assertNotEquals(ranOn, answeredOn, "the retry went to another namenode");
  }

  /**
   * Namenode proxies that lose the reply of the first call of each named method: the namenode runs it, the client
   * sees the connection drop (EOF), as when a namenode dies between its commit and its reply.
   */
  private static final class ReplyLosingFactory implements HAProxyFactory<ClientProtocol> {
    private final HAProxyFactory<ClientProtocol> real = new ClientHAProxyFactory<>();
    private final Set<String> toLose = ConcurrentHashMap.newKeySet();

    ReplyLosingFactory(Set<String> methods) {
      toLose.addAll(methods);
    }

    Set<String> pending() {
      return Set.copyOf(toLose);
    }

    @Override
    public ClientProtocol createProxy(Configuration conf, InetSocketAddress address, Class<ClientProtocol> xface,
        UserGroupInformation ugi, boolean withRetries, AtomicBoolean fallbackToSimpleAuth) throws IOException {
      ClientProtocol namenode = real.createProxy(conf, address, xface, ugi, withRetries, fallbackToSimpleAuth);
      return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
          new Class<?>[] {ClientProtocol.class}, new LosingHandler(namenode, address, toLose));
    }

    @Override
    public ClientProtocol createProxy(Configuration conf, InetSocketAddress address, Class<ClientProtocol> xface,
        UserGroupInformation ugi, boolean withRetries) throws IOException {
      return createProxy(conf, address, xface, ugi, withRetries, null);
    }
  }

  private record LosingHandler(ClientProtocol namenode, InetSocketAddress address, Set<String> toLose)
      implements java.lang.reflect.InvocationHandler, Closeable {
    @Override
    public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) throws Throwable {
      Object result;
      try {
        result = method.invoke(namenode, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (toLose.remove(method.getName())) {
        throw new EOFException("test: the reply to " + method.getName() + " from " + address + " was lost");
      }
      return result;
    }

    @Override
    public void close() {
      RPC.stopProxy(namenode);
    }
  }
}
