package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link MiniCanopyCluster} for all the tests of a class: started in a temporary directory of its own before them,
 * stopped after them with what the tests opened through the extension. Register it on a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
 *     .configure(conf -&gt; conf.setInt("dfs.replication", 1)).nameNodes(2).dataNodes(1).build();
 * </pre>
 *
 * It starts before the class's {@code @BeforeAll} methods and stops after its {@code @AfterAll} methods.
 */
public final class CanopyClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private static final Duration LEADER_WAIT = Duration.ofSeconds(20);

  private final Consumer<Configuration> configuration;
  private final int nameNodes;
  private final int dataNodes;
  private final boolean awaitLeader;
  private final Duration startTimeout;
  private Path directory;
  private MiniCanopyCluster cluster;
  private MetadataStore store;
  private UserClients users;
  private final Map<Integer, DistributedFileSystem> fileSystems = new HashMap<>();

  private CanopyClusterExtension(Builder settings) {
    this.configuration = settings.configuration;
    this.nameNodes = settings.nameNodes;
    this.dataNodes = settings.dataNodes;
    this.awaitLeader = settings.awaitLeader;
    this.startTimeout = settings.startTimeout;
  }

  /** A cluster of one namenode and no datanode on {@link MiniCanopyCluster#testConfiguration()}, unless told. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (directory != null) {
      throw new IllegalStateException("the cluster of " + directory + " still runs");
    }
    directory = Files.createTempDirectory("canopy-" + context.getRequiredTestClass().getSimpleName());
    if (startTimeout == null) {
      start();
    } else {
      assertTimeoutPreemptively(startTimeout, this::start, "starting the cluster");
    }
  }

  private void start() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    configuration.accept(conf);
    cluster = MiniCanopyCluster.start(directory, conf, nameNodes, dataNodes);
    if (awaitLeader) {
      Await.until("namenode 0 leads", LEADER_WAIT, () -> cluster.nameNode(0).election().isLeader());
    }
  }

  /**
   * Closes the users' clients, the store, the cluster (with its clients), then deletes the directory: the resources
   * below in reverse order, each even if closing one before it failed (a null one is skipped).
   */
  @Override
  public synchronized void afterAll(ExtensionContext context) throws Exception {
    Path startedIn = directory;
    AutoCloseable deletion = startedIn == null ? null : () -> delete(startedIn);
    try (AutoCloseable directoryDeletion = deletion; AutoCloseable startedCluster = cluster;
        AutoCloseable openStore = store; AutoCloseable userClients = users) {
      directory = null;
      cluster = null;
      store = null;
      users = null;
      fileSystems.clear();
    }
  }

  private static void delete(Path directory) throws IOException {
    if (!FileUtil.fullyDelete(directory.toFile())) {
      throw new IOException("could not delete " + directory);
    }
  }

  /** The running cluster. */
  public MiniCanopyCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("no cluster runs: register the extension on a static @RegisterExtension field");
    }
    return cluster;
  }

  /** The cluster's directory (its database and datanodes live in subdirectories; a test may add its own). */
  public Path directory() {
    cluster();
    return directory;
  }

  /** The client of namenode 0. */
  public DistributedFileSystem fileSystem() throws IOException {
    return fileSystem(0);
  }

  /** The client of namenode {@code index}: one per namenode, opened on first use, closed with the cluster. */
  public synchronized DistributedFileSystem fileSystem(int index) throws IOException {
    DistributedFileSystem fs = fileSystems.get(index);
    if (fs == null) {
      fs = cluster().fileSystem(index);
      fileSystems.put(index, fs);
    }
    return fs;
  }

  /** A store on the cluster's database for direct inspection, opened on first use and closed after the tests. */
  public synchronized MetadataStore store() throws IOException {
    if (store == null) {
      store = cluster().openStore();
    }
    return store;
  }

  /** Clients of the cluster as other users, made on first use and closed after the tests. */
  public synchronized UserClients users() {
    if (users == null) {
      users = new UserClients(cluster());
    }
    return users;
  }

  /** What cluster to start; each setting has a default. */
  public static final class Builder {
    private Consumer<Configuration> configuration = conf -> { };
    private int nameNodes = 1;
    private int dataNodes;
    private boolean awaitLeader;
    private Duration startTimeout;

    private Builder() {
    }

    /** Changes to {@link MiniCanopyCluster#testConfiguration()} before the cluster starts on it. */
    public Builder configure(Consumer<Configuration> configuration) {
      this.configuration = configuration;
      return this;
    }

    public Builder nameNodes(int count) {
      this.nameNodes = count;
      return this;
    }

    public Builder dataNodes(int count) {
      this.dataNodes = count;
      return this;
    }

    /** Waits (up to 20 s) until namenode 0 has won the election before the tests run. */
    public Builder awaitLeader() {
      this.awaitLeader = true;
      return this;
    }

    /** Fails the test class when starting (and awaiting the leader) takes longer than {@code timeout}. */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    public CanopyClusterExtension build() {
      return new CanopyClusterExtension(this);
    }
  }
}
