package io.canopy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The database tier of a local cluster on Apache Ignite 3 alone (design 020): nodes {@code db-1..N} as processes
 * under a cluster directory, started exactly as {@code canopy up --engine ignite --db-nodes N} starts them (same
 * configuration files, launcher, initialization and readiness check), with no namenode or datanode. For embedders
 * that run namenodes themselves: the integration tests run their in-JVM clusters on it.
 */
public final class LocalIgniteDatabase implements AutoCloseable {
  /** Within what the database nodes must have joined and initialized the cluster. */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final ClusterLayout layout;
  private final ClusterProperties cluster;
  private final PrintWriter out;
  /** Stops the nodes if the embedding JVM ends without closing this (a test run stopped half-way). */
  private final Thread stopAtExit;

  private LocalIgniteDatabase(ClusterLayout layout, ClusterProperties cluster, PrintWriter out) {
    this.layout = layout;
    this.cluster = cluster;
    this.out = out;
    this.stopAtExit = new Thread(this::stopQuietly, "canopy-db-nodes-stop");
  }

  /**
   * Starts {@code nodes} database nodes (1 to {@link UpCommand}'s limit) on free loopback ports under {@code root}
   * (created if missing; a directory that already held a cluster is refused) and returns once every node serves the
   * initialized cluster. Progress lines go to {@code out}.
   */
  public static LocalIgniteDatabase start(Path root, int nodes, PrintWriter out) throws IOException {
    if (nodes < 1) {
      throw new IllegalArgumentException("a database needs at least one node, got " + nodes);
    }
    ClusterLayout layout = new ClusterLayout(root);
    if (java.nio.file.Files.exists(layout.igniteInitializedMarker())) {
      throw new IllegalArgumentException(root + " already holds an Ignite cluster: start from an empty directory");
    }
    Map<String, Integer> ports = new TreeMap<>();
    Set<Integer> taken = new HashSet<>();
    for (Role node : ClusterProperties.databaseRoles(ClusterProperties.IGNITE, nodes, Map.of())) {
      for (String key : List.of(node.name(), ClusterProperties.networkPortKey(node),
          ClusterProperties.restPortKey(node))) {
        int port = Ports.reuseOrPick(null, taken);
        taken.add(port);
        ports.put(key, port);
      }
    }
    ClusterProperties cluster = new ClusterProperties(ClusterProperties.IGNITE, nodes, 0, 0, 0, ports, Map.of());
    IgniteNodeConfigs.writeAll(layout, cluster);
    LocalIgniteDatabase database = new LocalIgniteDatabase(layout, cluster, out);
    new ClusterStarter(layout, cluster, DaemonLauncher.forThisJvm(layout), out, out, START_TIMEOUT)
        .startDatabaseTier();
    Runtime.getRuntime().addShutdownHook(database.stopAtExit);
    return database;
  }

  /** The metadata settings of a store on this database: the engine, every node's client address, the replicas. */
  public Map<String, String> settings() {
    return new TreeMap<>(MetadataAccess.settings(layout, cluster, MetadataAccess.Login.OWNER, null));
  }

  /** The process serving database node {@code index} (1-based), if it runs. */
  public Optional<ProcessHandle> process(int index) {
    return new Daemons(layout).running(Role.databaseNode(index));
  }

  /** Stops every database node (SIGTERM, then SIGKILL after a bound); the data stays under the directory. */
  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or ran: it stops them
    }
    stop();
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (IOException | RuntimeException e) {
      out.println("could not stop the database nodes under " + layout.root() + ": " + e.getMessage());
      out.flush();
    }
  }

  private void stop() throws IOException {
    Daemons daemons = new Daemons(layout);
    List<Daemons.Running> running = new ArrayList<>();
    for (Role node : cluster.databaseRoles()) {
      daemons.running(node).ifPresent(process -> running.add(new Daemons.Running(node, process)));
    }
    int stopped = daemons.stop(running, STOP_TIMEOUT, out);
    if (stopped != running.size()) {
      throw new IOException("could not stop " + (running.size() - stopped) + " database node(s) under "
          + layout.root());
    }
  }
}
