package io.canopy.bench;

import io.canopy.cli.CanopyCli;
import io.canopy.cli.ClusterConfigs;
import io.canopy.cli.ClusterLayout;
import io.canopy.cli.DaemonLauncher;
import io.canopy.cli.Role;
import io.canopy.metadata.postgres.Postmaster;
import io.canopy.namenode.tx.MetricsFile;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine;

/** A Canopy cluster started with the real {@code canopy up} (child processes), stopped with {@code canopy down}. */
public final class CanopySystem implements SystemUnderTest {
  private static final Pattern DEFAULT_FS =
      Pattern.compile("(?m)^fs\\.defaultFS=(hdfs://(?:127\\.0\\.0\\.1:\\d+|[a-z]+))$");
  static final String SERVER_LOG4J = "canopy-bench-servers-log4j.properties";
  /** Kinds of {@link #serverCpuRoots()}: the namenode JVMs. */
  public static final String NAMENODES = "namenode";
  /** The PostgreSQL server: the postmaster and all its children (backends, background workers). */
  public static final String POSTGRESQL = "PostgreSQL";
  /** The Apache Ignite 3 database nodes ({@code db-K}, one process each) of a cluster on that engine. */
  public static final String IGNITE = "Ignite nodes";
  /** The DataNodes' JVM (one for all of them). */
  public static final String DATANODES = "datanodes";
  /** The JVM that launched the embedded PostgreSQL and holds it (idle while the cluster runs). */
  public static final String LAUNCHER = "database launcher";

  private final Path directory;
  private final String uri;
  /** Stops the cluster if the harness is interrupted (its processes run in their own sessions and would stay). */
  private final Thread stopOnExit;

  private CanopySystem(Path directory, String uri) {
    this.directory = directory;
    this.uri = uri;
    this.stopOnExit = new Thread(() -> {
      try {
        canopy(List.of("down", "--dir", directory.toString()));
      } catch (IOException | RuntimeException ignored) {
        // exiting anyway; canopy down --dir DIR can be run by hand
      }
    }, "canopy-bench-stop-cluster");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /** Starts a fresh cluster in {@code directory} with {@code datanodes} datanodes and the given settings. */
  public static CanopySystem start(Path directory, int datanodes, Map<String, String> settings) throws IOException {
    return start(directory, 1, datanodes, settings);
  }

  /** Starts a fresh cluster with {@code namenodes} namenodes (several: clients reach them as a nameservice). */
  public static CanopySystem start(Path directory, int namenodes, int datanodes, Map<String, String> settings)
      throws IOException {
    return start(directory, namenodes, datanodes, MetadataEngine.POSTGRES, settings);
  }

  /** Starts a fresh cluster whose metadata lives on {@code engine}. */
  public static CanopySystem start(Path directory, int namenodes, int datanodes, MetadataEngine engine,
      Map<String, String> settings) throws IOException {
    System.setProperty(DaemonLauncher.LOG4J_PROPERTY, SERVER_LOG4J);
    List<String> args = new ArrayList<>(List.of("up", "--dir", directory.toString(), "--namenodes",
        Integer.toString(namenodes), "--datanodes", Integer.toString(datanodes)));
    args.addAll(engine.upArguments());
    settings.forEach((key, value) -> {
      args.add("-D");
      args.add(key + "=" + value);
    });
    String output = canopy(args);
    Matcher matcher = DEFAULT_FS.matcher(output);
    if (!matcher.find()) {
      throw new IOException("canopy up did not start a cluster in " + directory + ":\n" + output);
    }
    return new CanopySystem(directory, matcher.group(1));
  }

  private static String canopy(List<String> args) throws IOException {
    CommandLine commandLine = CanopyCli.newCommandLine();
    StringWriter out = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(out, true));
    int exit = commandLine.execute(args.toArray(new String[0]));
    if (exit != 0) {
      throw new IOException("canopy " + String.join(" ", args) + " exited " + exit + ":\n" + out);
    }
    return out.toString();
  }

  @Override
  public String name() {
    return "Canopy";
  }

  @Override
  public String uri() {
    return uri;
  }

  /**
   * {@code base} plus the cluster's client configuration files: what a client needs to reach a nameservice of
   * several namenodes (and harmless with one).
   */
  public Configuration clientConfiguration(Configuration base) {
    Configuration conf = new Configuration(base);
    conf.addResource(new org.apache.hadoop.fs.Path(layout().etc().resolve(ClusterConfigs.CORE_SITE).toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(layout().etc().resolve(ClusterConfigs.HDFS_SITE).toUri()));
    return conf;
  }

  ClusterLayout layout() {
    return new ClusterLayout(directory);
  }

  /** Where the first namenode serves the DatanodeProtocol (its service port), as a datanode reaches it. */
  public java.net.InetSocketAddress datanodeProtocolAddress() throws IOException {
    String address = io.canopy.cli.ClusterProperties.load(layout().propertiesFile())
        .orElseThrow(() -> new IOException("no cluster.properties in " + directory))
        .namenodeServiceAddresses().get(0);
    int colon = address.lastIndexOf(':');
    return new java.net.InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
  }

  /** The first namenode's pid (the process the profiler attaches to). */
  public long nameNodePid() throws IOException {
    return Long.parseLong(Files.readString(layout().pidFile(Role.namenode(1))).trim());
  }

  /**
   * Every namenode's operation counters since it started, summed by operation (each namenode writes its file every
   * second: a figure is up to a second old).
   */
  public Map<String, OperationMetrics.Snapshot> allNameNodesByOperation() throws IOException {
    Map<String, OperationMetrics.Snapshot> total = new java.util.TreeMap<>();
    for (int index = 1; Files.exists(layout().metricsFile(Role.namenode(index))); index++) {
      MetricsFile.read(layout().metricsFile(Role.namenode(index)))
          .forEach((operation, snapshot) -> total.merge(operation, snapshot, OperationMetrics.Snapshot::plus));
    }
    return total;
  }

  /** The sum of every namenode's operation counters since it started. */
  public OperationMetrics.Snapshot allNameNodesTotal() throws IOException {
    return allNameNodesByOperation().values().stream()
        .reduce(OperationMetrics.Snapshot.ZERO, OperationMetrics.Snapshot::plus);
  }

  /** Operation counters of the first namenode since it started. */
  public Map<String, OperationMetrics.Snapshot> nameNodeMetrics() throws IOException {
    return MetricsFile.read(layout().metricsFile(Role.namenode(1)));
  }

  /**
   * Roots of the server process trees by kind: {@link #NAMENODES}, {@link #POSTGRESQL} (the postmaster, whose tree
   * holds every backend), {@link #DATANODES} (one process for all of them), and {@link #LAUNCHER}, the idle JVM that started PostgreSQL (pg_ctl
   * detaches the server from it, so it is a tree of its own); on Ignite, {@link #IGNITE} (the database nodes) in
   * place of {@link #POSTGRESQL} and {@link #LAUNCHER}. Kinds without a process are left out.
   */
  @Override
  public Map<String, List<Long>> serverCpuRoots() throws IOException {
    Map<String, List<Long>> roots = new java.util.LinkedHashMap<>();
    for (String kind : List.of(NAMENODES, POSTGRESQL, IGNITE, DATANODES, LAUNCHER)) {
      roots.put(kind, new ArrayList<>());
    }
    try (Stream<Path> files = Files.list(layout().runDir())) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".pid")) {
          String kind = name.startsWith("namenode") ? NAMENODES : name.startsWith("datanode") ? DATANODES
              : name.startsWith("db-") ? IGNITE : LAUNCHER;
          long pid = Long.parseLong(Files.readString(file).trim());
          if (!roots.get(kind).contains(pid)) { // the datanodes share one process, named by each one's pid file
            roots.get(kind).add(pid);
          }
        }
      }
    }
    Postmaster.running(layout().databaseDir()).ifPresent(server -> roots.get(POSTGRESQL).add(server.pid()));
    roots.values().removeIf(List::isEmpty);
    return roots;
  }

  @Override
  public List<Long> serverPids() throws IOException {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> files = Files.list(layout().runDir())) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (file.getFileName().toString().endsWith(".pid")) {
          pids.add(Long.parseLong(Files.readString(file).trim()));
        }
      }
    }
    // PostgreSQL is started by pg_ctl, not as a child of its launcher: pin the server and its backends too.
    Postmaster.running(layout().databaseDir()).ifPresent(server -> pids.addAll(
        CpuPinning.withDescendants(server.pid())));
    return pids;
  }

  @Override
  public String durability() {
    return "PostgreSQL with fsync=on and synchronous_commit=on: every metadata commit is on disk before the client "
        + "hears of it";
  }

  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook is already running
    }
    canopy(List.of("down", "--dir", directory.toString()));
  }
}
