package io.canopy.it;

import io.canopy.client.Nameservice;
import io.canopy.cli.LocalIgniteDatabase;
import io.canopy.datanode.DataNodeLauncher;
import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.ignite.IgniteSettings;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.metadata.postgres.Postmaster;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;

/**
 * A whole Canopy cluster inside the test JVM on loopback: an embedded PostgreSQL, N namenodes on it and M stock
 * Apache DataNodes. Everything it starts, {@link #close()} stops.
 *
 * <p>With {@code -D}{@value #ENGINE_PROPERTY}{@code =ignite} the metadata lives on Apache Ignite 3 instead (design
 * 020): {@value #IGNITE_NODES} database nodes as processes, started as {@code canopy up --engine ignite} starts them,
 * each table with a replica on every node; the namenodes and datanodes stay in the test JVM.
 */
public final class MiniCanopyCluster implements AutoCloseable {
  /** The system property naming the engine of the clusters tests start: postgres (the default) or ignite. */
  public static final String ENGINE_PROPERTY = "canopy.it.engine";
  /** Database nodes of a cluster on Ignite: the three, so a node can fail while a majority serves. */
  public static final int IGNITE_NODES = 3;
  private final Path directory;
  private final Configuration conf;
  private EmbeddedPostgresServer database;
  private LocalIgniteDatabase igniteDatabase;
  private final List<NameNode> nameNodes = new ArrayList<>();
  private final java.util.Set<Integer> stopped = new java.util.HashSet<>();
  /** The client and service addresses of crashed namenodes, for their restart on the same ones. */
  private final java.util.Map<Integer, InetSocketAddress[]> crashedAddresses = new java.util.HashMap<>();
  private final List<DataNode> dataNodes = new ArrayList<>();
  private final List<FileSystem> fileSystems = new ArrayList<>();

  private MiniCanopyCluster(Path directory, Configuration conf) {
    this.directory = directory;
    this.conf = conf;
  }

  /** Test defaults: small blocks allowed, fast heartbeats, quiet. */
  public static Configuration testConfiguration() {
    Configuration conf = new Configuration();
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 16);
    conf.setLong("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 10);
    conf.set(NameNodeConfig.RPC_ADDRESS, "127.0.0.1:0");
    conf.set(NameNodeConfig.HTTP_ADDRESS, "127.0.0.1:0");
    conf.setInt(NameNodeConfig.HANDLER_COUNT, 8);
    conf.setInt(NameNodeConfig.SERVICE_HANDLER_COUNT, 4);
    conf.setInt(MetadataConfig.POOL_SIZE, 16);
    conf.setLong(NameNodeConfig.RANDOM_SEED, 42);
    // A killed namenode refuses connections: datanodes and clients give up on it quickly (the defaults retry ten
    // times a second apart per call, and a datanode's shutdown waits for its threads to notice).
    conf.setInt("ipc.client.connect.max.retries", 2);
    conf.setInt("ipc.client.connect.retry.interval", 100);
    return conf;
  }

  public static MiniCanopyCluster start(Path directory, Configuration conf, int nameNodeCount, int dataNodeCount)
      throws IOException {
    return start(directory, conf, nameNodeCount, dataNodeCount, true);
  }

  /**
   * As {@link #start(Path, Configuration, int, int)}, but returns without waiting for the startup safe mode to end:
   * for tests of the safe mode itself.
   */
  public static MiniCanopyCluster startInSafeMode(Path directory, Configuration conf, int nameNodeCount,
      int dataNodeCount) throws IOException {
    return start(directory, conf, nameNodeCount, dataNodeCount, false);
  }

  private static MiniCanopyCluster start(Path directory, Configuration conf, int nameNodeCount, int dataNodeCount,
      boolean awaitSafeModeOff) throws IOException {
    // Several datanodes in one JVM register the same metrics sources; mini-cluster mode lets them.
    DefaultMetricsSystem.setMiniClusterMode(true);
    MiniCanopyCluster cluster = new MiniCanopyCluster(directory, conf);
    try {
      cluster.startDatabase();
      cluster.formatIfNeeded();
      for (int i = 0; i < nameNodeCount; i++) {
        cluster.startNameNode();
      }
      for (int i = 0; i < dataNodeCount; i++) {
        cluster.startDataNode(i);
      }
      cluster.waitForDataNodes(dataNodeCount, Duration.ofSeconds(60));
      if (awaitSafeModeOff) {
        cluster.waitForSafeModeOff(Duration.ofSeconds(60));
      }
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** The engine of the clusters this test JVM starts ({@link #ENGINE_PROPERTY}). */
  public static String engine() {
    String engine = System.getProperty(ENGINE_PROPERTY, "").trim();
    return engine.isEmpty() ? MetadataConfig.ENGINE_DEFAULT : engine;
  }

  /** Whether the clusters of this test JVM keep their metadata on Ignite. */
  public static boolean onIgnite() {
    return engine().equals(IgniteSettings.ENGINE_NAME);
  }

  private void startDatabase() throws IOException {
    String engine = engine();
    if (engine.equals(IgniteSettings.ENGINE_NAME)) {
      java.io.PrintWriter progress = new java.io.PrintWriter(new java.io.OutputStreamWriter(System.out,
          java.nio.charset.StandardCharsets.UTF_8), true);
      igniteDatabase = LocalIgniteDatabase.start(directory.resolve("ignite"), IGNITE_NODES, progress);
      igniteDatabase.settings().forEach(conf::set);
      return;
    }
    if (!engine.equals(MetadataConfig.ENGINE_DEFAULT)) {
      throw new IllegalArgumentException("-D" + ENGINE_PROPERTY + "=" + engine + ": neither "
          + MetadataConfig.ENGINE_DEFAULT + " nor " + IgniteSettings.ENGINE_NAME);
    }
    database = EmbeddedPostgresServer.start(databaseDirectory(directory), directory.resolve("secrets"), 0);
    database.ownerSettings().forEach(conf::set);
  }

  /** The embedded PostgreSQL server's postmaster (its backends are its child processes), for fault tests. */
  public ProcessHandle databaseServer() {
    if (igniteDatabase != null) {
      throw new IllegalStateException("this cluster's metadata is on Ignite: no PostgreSQL server");
    }
    return Postmaster.running(databaseDirectory(directory)).orElseThrow(() -> new IllegalStateException(
        "no PostgreSQL server runs on " + databaseDirectory(directory)));
  }

  /** Opens a separate store on the cluster's database (for direct inspection in tests). */
  public MetadataStore openStore() throws IOException {
    return MetadataStoreProvider.open(engine(), NameNodeConfig.metadataSettings(conf));
  }

  private void formatIfNeeded() throws IOException {
    try (MetadataStore store = openStore()) {
      if (!NamespaceFormatter.isFormatted(store)) {
        NamespaceFormatter.format(store, conf, false);
      }
    }
  }

  /**
   * Starts one more namenode. One that starts the cluster again (every other one stopped) turns the startup safe mode
   * on: with datanodes running, this waits until they have reported and it is off again.
   */
  /** The data directory of the cluster's embedded PostgreSQL (a test may copy it while the cluster is stopped). */
  public static Path databaseDirectory(Path directory) {
    return directory.resolve("db");
  }

  public NameNode startNameNode() throws IOException {
    NameNode nameNode = NameNode.start(new Configuration(conf));
    nameNodes.add(nameNode);
    if (!dataNodes.isEmpty() && nameNode.safeMode().isOn()) {
      waitForSafeModeOff(Duration.ofSeconds(60));
    }
    return nameNode;
  }

  /**
   * Waits until the cluster is out of safe mode (a cluster started on an existing namespace is in its startup safe
   * mode until the datanodes have reported), as HDFS's MiniDFSCluster waits for its namenode.
   */
  public void waitForSafeModeOff(Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < nameNodes.size(); i++) {
      NameNode nameNode = nameNodes.get(i);
      while (!stopped.contains(i) && nameNode.safeMode().isOn()) {
        if (System.nanoTime() > deadline) {
          throw new IOException("Still in safe mode after " + timeout + ": " + nameNode.safeMode().tip());
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted waiting for safe mode to end", e);
        }
      }
    }
  }

  /** Datanodes talk to every namenode of the cluster (those started so far), as an HA nameservice. */
  private void startDataNode(int index) throws IOException {
    dataNodes.add(DataNodeLauncher.start(dataNodeConfiguration(), directory.resolve("dn" + index)));
  }

  /**
   * Starts one more datanode (the next index) that registers under {@code hostName} ({@code dfs.datanode.hostname};
   * it still listens on the loopback address), so a topology mapping of the test can place it by that name.
   */
  public DataNode startDataNode(String hostName) throws IOException {
    Configuration dataNodeConf = dataNodeConfiguration();
    dataNodeConf.set("dfs.datanode.hostname", hostName);
    DataNode dataNode = DataNodeLauncher.start(dataNodeConf, directory.resolve("dn" + dataNodes.size()));
    dataNodes.add(dataNode);
    return dataNode;
  }

  /**
   * The configuration datanodes of this cluster start with: the cluster's, plus every namenode not stopped as an HA
   * nameservice, with the service addresses datanodes report to.
   */
  public Configuration dataNodeConfiguration() {
    Configuration dataNodeConf = new Configuration(conf);
    List<String> addresses = new ArrayList<>();
    List<String> serviceAddresses = new ArrayList<>();
    for (int i = 0; i < nameNodes.size(); i++) {
      if (!stopped.contains(i)) {
        addresses.add(NetUtils.getHostPortString(nameNodes.get(i).address()));
        serviceAddresses.add(NetUtils.getHostPortString(nameNodes.get(i).serviceAddress()));
      }
    }
    Nameservice.configure(dataNodeConf, Nameservice.DEFAULT_NAME, addresses, serviceAddresses,
        Nameservice.HADOOP_PROVIDER);
    return dataNodeConf;
  }

  /**
   * The configuration of a DataNode for a namenode a test started by itself (outside a cluster): its client address
   * as the default file system, its service address for the datanode protocol (the client port refuses it).
   */
  public static Configuration dataNodeConfigurationFor(NameNode nameNode, Configuration conf) {
    Configuration dataNodeConf = new Configuration(conf);
    dataNodeConf.set("fs.defaultFS", nameNode.uri());
    dataNodeConf.set("dfs.namenode.servicerpc-address", NetUtils.getHostPortString(nameNode.serviceAddress()));
    return dataNodeConf;
  }

  /** The data directory of datanode {@code index}. */
  public Path dataNodeDirectory(int index) {
    return directory.resolve("dn" + index);
  }

  /**
   * Starts datanode {@code index} again on its data directory (so with its uuid, storages and replicas), after a test
   * shut it down; the new one takes its place in {@link #dataNodes()}. Its uuid is known (non-null) only once it has
   * read its storage, shortly after it reached a namenode.
   */
  public DataNode restartDataNode(int index) throws IOException {
    return restartDataNode(index, () -> { });
  }

  /** What a test does to a stopped datanode's directory (its disk) before the datanode starts again. */
  public interface WhileStopped {
    void run() throws IOException;
  }

  /** {@link #restartDataNode(int)}, running {@code whileStopped} between the stop and the start. */
  public DataNode restartDataNode(int index, WhileStopped whileStopped) throws IOException {
    dataNodes.get(index).shutdown();
    whileStopped.run();
    DataNode restarted = DataNodeLauncher.start(dataNodeConfiguration(), dataNodeDirectory(index));
    dataNodes.set(index, restarted);
    return restarted;
  }

  /** Stops namenode {@code index} cleanly (it leaves the group); its index stays taken. */
  public void stopNameNode(int index) {
    if (stopped.add(index)) {
      nameNodes.get(index).close();
    }
  }

  /** Stops namenode {@code index} as SIGKILL would: it says goodbye to nobody. Its index stays taken. */
  public void crashNameNode(int index) {
    if (stopped.add(index)) {
      crashedAddresses.put(index, new InetSocketAddress[] {nameNodes.get(index).address(),
          nameNodes.get(index).serviceAddress()});
      nameNodes.get(index).crash();
    }
  }

  /**
   * Stops namenode {@code index} (as a crash would, unless it was crashed before) and starts a new one on the same
   * addresses, so datanodes and
   * clients that know it reconnect to it; it takes the old one's index.
   */
  public NameNode restartNameNode(int index) throws IOException {
    crashNameNode(index);
    InetSocketAddress address = crashedAddresses.get(index)[0];
    InetSocketAddress serviceAddress = crashedAddresses.get(index)[1];
    Configuration restartConf = new Configuration(conf);
    restartConf.set(NameNodeConfig.RPC_ADDRESS, NetUtils.getHostPortString(address));
    restartConf.set(NameNodeConfig.SERVICE_RPC_ADDRESS, NetUtils.getHostPortString(serviceAddress));
    NameNode restarted = NameNode.start(restartConf);
    nameNodes.set(index, restarted);
    stopped.remove(index);
    if (!dataNodes.isEmpty() && restarted.safeMode().isOn()) {
      waitForSafeModeOff(Duration.ofSeconds(60));
    }
    return restarted;
  }

  public boolean isStopped(int index) {
    return stopped.contains(index);
  }

  /** The datanodes, in start order (a test may shut one down: {@link DataNode#shutdown()}). */
  public List<DataNode> dataNodes() {
    return dataNodes;
  }

  /**
   * Waits until every namenode not stopped counts {@code count} live datanodes with their storages reported: each
   * namenode learns a datanode's storages from that datanode's own heartbeats to it, and a write placed through one
   * that has not yet heard from any is refused ("could only be written to 0 of the 1 minReplication nodes").
   */
  public void waitForDataNodes(int count, Duration timeout) throws IOException {
    if (count == 0) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < nameNodes.size(); i++) {
      if (stopped.contains(i)) {
        continue;
      }
      String address = "hdfs://" + NetUtils.getHostPortString(nameNodes.get(i).address());
      try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(URI.create(address), conf)) {
        while (true) {
          DatanodeInfo[] live = fs.getDataNodeStats(DatanodeReportType.LIVE);
          long withStorages = Arrays.stream(live).filter(node -> node.getCapacity() > 0).count();
          if (withStorages >= count) {
            break;
          }
          if (System.nanoTime() > deadline) {
            throw new IOException("Only " + live.length + " of " + count + " datanodes registered (" + withStorages
                + " with their storages reported) at namenode " + i + " (" + address + ") within " + timeout);
          }
          Thread.sleep(100);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for datanodes", e);
      }
    }
  }


  public String uri() {
    return uri(0);
  }

  public String uri(int nameNode) {
    return nameNodes.get(nameNode).uri();
  }

  /** Namenodes started so far, stopped ones included (indexes never move). */
  public int nameNodeCount() {
    return nameNodes.size();
  }

  public NameNode nameNode(int index) {
    return nameNodes.get(index);
  }

  public Configuration conf() {
    return conf;
  }

  /** A new client of namenode {@code index}; closed with the cluster. */
  public DistributedFileSystem fileSystem(int index) throws IOException {
    Configuration clientConf = new Configuration(conf);
    DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(URI.create(uri(index)), clientConf);
    fileSystems.add(fs);
    return fs;
  }

  public DistributedFileSystem fileSystem() throws IOException {
    return fileSystem(0);
  }

  public Map<String, String> metadataSettings() {
    return NameNodeConfig.metadataSettings(conf);
  }

  @Override
  public void close() throws IOException {
    for (FileSystem fs : fileSystems) {
      try {
        fs.close();
      } catch (IOException ignored) {
        // the namenode may already be gone
      }
    }
    dataNodes.forEach(DataNode::shutdown);
    for (int i = 0; i < nameNodes.size(); i++) {
      stopNameNode(i);
    }
    if (database != null) {
      database.close();
    }
    if (igniteDatabase != null) {
      igniteDatabase.close();
    }
  }
}
