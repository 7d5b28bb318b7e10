package io.canopy.it;

import io.canopy.datanode.DataNodeLauncher;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.metadata.postgres.PostgresSettings;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * A whole Canopy cluster inside the test JVM on loopback: an embedded PostgreSQL, N namenodes on it and M stock
 * Apache DataNodes. Everything it starts, {@link #close()} stops.
 */
public final class MiniCanopyCluster implements AutoCloseable {
  private final Path directory;
  private final Configuration conf;
  private EmbeddedPostgresServer database;
  private final List<NameNode> nameNodes = new ArrayList<>();
  private final Set<NameNode> stoppedNameNodes = Collections.newSetFromMap(new IdentityHashMap<>());
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
    conf.setInt(NameNodeConfig.HANDLER_COUNT, 8);
    conf.setInt("canopy.metadata.pool.size", 16);
    conf.setLong(NameNodeConfig.RANDOM_SEED, 42);
    return conf;
  }

  public static MiniCanopyCluster start(Path directory, Configuration conf, int nameNodeCount, int dataNodeCount)
      throws IOException {
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
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void startDatabase() throws IOException {
    database = EmbeddedPostgresServer.start(directory.resolve("db"), 0);
    conf.set(PostgresSettings.JDBC_URL, database.jdbcUrl());
  }

  /** Opens a separate store on the cluster's database (for direct inspection in tests). */
  public MetadataStore openStore() throws IOException {
    return MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf));
  }

  private void formatIfNeeded() throws IOException {
    try (MetadataStore store = openStore()) {
      if (!NamespaceFormatter.isFormatted(store)) {
        NamespaceFormatter.format(store, conf, false);
      }
    }
  }

  public NameNode startNameNode() throws IOException {
    NameNode nameNode = NameNode.start(new Configuration(conf));
    nameNodes.add(nameNode);
    return nameNode;
  }

  private void startDataNode(int index) throws IOException {
    Configuration dataNodeConf = new Configuration(conf);
    dataNodeConf.set("fs.defaultFS", nameNodes.get(0).uri());
    dataNodes.add(DataNodeLauncher.start(dataNodeConf, directory.resolve("dn" + index)));
  }

  public void waitForDataNodes(int count, Duration timeout) throws IOException {
    if (count == 0) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(URI.create(uri()), conf)) {
      while (true) {
        int live = fs.getDataNodeStats(DatanodeReportType.LIVE).length;
        boolean storagesReported = fs.getStatus().getCapacity() > 0;
        if (live >= count && storagesReported) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("Only " + live + " of " + count + " datanodes registered within " + timeout);
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for datanodes", e);
    }
  }

  public String uri() {
    return uri(0);
  }

  public String uri(int nameNode) {
    return nameNodes.get(nameNode).uri();
  }

  public NameNode nameNode(int index) {
    return nameNodes.get(index);
  }

  /**
   * Stops namenode {@code index}: its RPC server closes its connections, calls in flight get no reply. It keeps
   * its index, as stopped, so the other namenodes keep theirs.
   */
  public void stopNameNode(int index) {
    NameNode nameNode = nameNodes.get(index);
    if (stoppedNameNodes.add(nameNode)) {
      nameNode.close();
    }
  }

  public boolean isStopped(int index) {
    return stoppedNameNodes.contains(nameNodes.get(index));
  }

  /** Namenodes started so far, stopped ones included. */
  public int nameNodeCount() {
    return nameNodes.size();
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
    nameNodes.stream().filter(nameNode -> !stoppedNameNodes.contains(nameNode)).forEach(NameNode::close);
    if (database != null) {
      database.close();
    }
  }
}
