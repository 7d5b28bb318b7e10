package io.canopy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "up", mixinStandardHelpOptions = true,
    description = {"Start a local cluster (database, namenodes, datanodes) in the background.",
        "Runs the embedded PostgreSQL metadata database, N namenodes and M Apache DataNodes as background "
        + "processes on 127.0.0.1, and formats a new namespace on the first start.",
        "Returns once every namenode answers RPCs and namenode-1 reports M live datanodes, and prints as its last "
        + "line fs.defaultFS=hdfs://127.0.0.1:PORT (the address of namenode-1) with one namenode, or "
        + "fs.defaultFS=hdfs://canopy with several: the nameservice listing every namenode, defined in the client "
        + "configuration DIR/etc, through which clients fail over when a namenode dies. DataNodes always talk to "
        + "every namenode.",
        "Each namenode has two ports: its RPC port for clients and a service port where the DataNodes report "
        + "(DatanodeProtocol is refused on the client port); `canopy status` lists both.",
        "Counts, ports and -D settings are kept in DIR/cluster.properties and reused by the next `up`, so a plain "
        + "`canopy up` restarts the same cluster with the same data.",
        "If the cluster is already running (and no different counts or settings are asked for) it says so, "
        + "prints the fs.defaultFS line and exits 0.",
        "With --azs N the namenodes and datanodes are spread round-robin over N simulated availability zones, all "
        + "on 127.0.0.1: namenode I publishes location domain K and datanode I is placed at /azK/rack1 (by its host "
        + "name datanode-I.azK.localhost in the namenodes' topology table DIR/etc/topology.table), where K is "
        + "(I - 1) mod N + 1. Replicas then span zones. A client says where it is with "
        + "-D canopy.client.location-domain-id=K (its zone's namenodes first) and "
        + "-D canopy.client.network-location=/azK/rack1 (its zone's replicas first).",
        "With --engine ignite the metadata lives on Apache Ignite 3 (design 020) instead of the embedded PostgreSQL: "
        + "--db-nodes N server nodes (processes db-1..db-N, data in DIR/ignite), each partition copied to min(N, 3) "
        + "of them (-D canopy.metadata.ignite.replicas=R to choose), so that with 3 nodes losing one loses nothing. "
        + "-D canopy.metadata.ignite.addresses=HOST:PORT,... uses an external Ignite cluster instead. The engine of a "
        + "cluster directory is chosen by its first `up` and kept.",
        "With --secure the cluster runs in secure mode (design 023): a local KDC of its own (process kdc, realm "
        + "CANOPY.LOCAL, keytabs in DIR/kdc), Kerberos (SASL) on every RPC with privacy, block access tokens, SASL with "
        + "privacy on data transfer; namenodes and datanodes log in as USER/localhost, and canopy's commands as USER "
        + "(whoever ran `up`, the superuser as without --secure). Kept for later `up`s; --no-secure turns it off.",
        "Examples:",
        "  canopy up",
        "  canopy up --secure",
        "  canopy up --engine ignite --db-nodes 3",
        "  canopy up --namenodes 3 --datanodes 3 -D dfs.blocksize=1048576",
        "  canopy up --azs 3 --namenodes 3 --datanodes 6",
        "See also `canopy namenode` (add a namenode to the running cluster) and `canopy admin namenodes`."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the cluster is running", "1:it could not be started (the message names the role and its log)",
        "2:invalid arguments"})
public final class UpCommand implements Callable<Integer> {
  static final int MAX_NAMENODES = 16;
  static final int MAX_DATANODES = 64;
  static final int MAX_ZONES = 16;
  static final int DEFAULT_NAMENODES = 1;
  static final int DEFAULT_DATANODES = 3;
  static final int MAX_DATABASE_NODES = 9;
  static final int DEFAULT_IGNITE_NODES = 3;

  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--namenodes", paramLabel = "N",
      description = "Namenodes to run, 1.." + MAX_NAMENODES + " (default: as last time, else " + DEFAULT_NAMENODES
          + ").")
  Integer namenodes;

  @Option(names = "--datanodes", paramLabel = "M",
      description = "DataNodes to run, 0.." + MAX_DATANODES + " (default: as last time, else " + DEFAULT_DATANODES
          + ").")
  Integer datanodes;

  @Option(names = "--azs", paramLabel = "N",
      description = "Simulated availability zones to spread the processes over, 0.." + MAX_ZONES
          + "; 0: none (default: as last time, else 0).")
  Integer zones;

  @Option(names = "--engine", paramLabel = "ENGINE",
      description = "Where the metadata lives: postgres (embedded PostgreSQL) or ignite (Apache Ignite 3 nodes) "
          + "(default: as last time, else postgres).")
  String engine;

  @Option(names = "--db-nodes", paramLabel = "N",
      description = "Ignite database nodes to run, 1.." + MAX_DATABASE_NODES + " (default: as last time, else "
          + DEFAULT_IGNITE_NODES + "); only with --engine ignite.")
  Integer databaseNodes;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "Configuration setting for every process and the clients (dfs.* goes to hdfs-site.xml, "
          + "canopy.* to canopy-site.xml, the rest to core-site.xml). Repeatable; kept for later `up`s.")
  Map<String, String> overrides = new LinkedHashMap<>();

  @Option(names = "--secure", negatable = true,
      description = "Secure mode: Kerberos with a local KDC (see above); --no-secure: simple authentication (default: "
          + "as last time, else not secure).")
  Boolean secure;

  @Option(names = "--clear-settings", description = "Forget the -D settings of earlier `up`s.")
  boolean clearSettings;

  @Option(names = "--restart",
      description = "When part of the cluster runs (a process was killed, or crashed), start again the processes that "
          + "do not: the KDC, the database, namenodes, the datanodes' process; the running ones are left alone. "
          + "Without it, "
          + "`up` on a partly running cluster refuses.")
  boolean restart;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
      description = "Give up (and stop what was started) when not ready after this long (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    validate();
    ClusterLayout layout = dirOption.layout();
    PrintWriter out = spec.commandLine().getOut();
    try {
      Files.createDirectories(layout.root());
    } catch (IOException e) {
      throw new CliException("Cannot create the cluster directory " + layout.root() + ": " + e);
    }
    try (ClusterLock lock = ClusterLock.acquire(layout)) {
      Optional<ClusterProperties> previous = ClusterProperties.load(layout.propertiesFile());
      Daemons daemons = new Daemons(layout);
      List<Role> running = runningRoles(daemons, previous);
      if (!running.isEmpty()) {
        return alreadyRunning(layout, previous, running, out);
      }
      ClusterProperties plan = plan(previous, out);
      for (Role stale : daemons.rolesWithPidFiles()) {
        daemons.removePid(stale);
      }
      plan.store(layout.propertiesFile());
      ClusterConfigs.writeAll(layout, plan);
      out.println("Starting Canopy in " + layout.root() + ": " + (plan.secure() ? "secure mode (Kerberos, KDC of "
          + "realm " + SecureMode.REALM + "), " : "") + databaseText(plan)
          + Role.count(plan.namenodes(), Role.Kind.NAMENODE)
          + ", " + Role.count(plan.datanodes(), Role.Kind.DATANODE) + zonesText(plan));
      out.flush();
      ClusterStarter starter = new ClusterStarter(layout, plan, DaemonLauncher.forThisJvm(layout), out,
          spec.commandLine().getErr(), Duration.ofSeconds(timeoutSeconds));
      starter.start();
      out.println(String.format(Locale.ROOT, "Canopy is up after %.1f s; client configuration in %s",
          starter.elapsedSeconds(), layout.etc()));
      printNamenodes(plan, out);
      out.println("fs.defaultFS=" + plan.defaultFs());
      out.flush();
      return 0;
    }
  }

  private void validate() {
    if (namenodes != null && (namenodes < 1 || namenodes > MAX_NAMENODES)) {
      throw new CliException(2, "--namenodes must be within [1, " + MAX_NAMENODES + "], got " + namenodes);
    }
    if (datanodes != null && (datanodes < 0 || datanodes > MAX_DATANODES)) {
      throw new CliException(2, "--datanodes must be within [0, " + MAX_DATANODES + "], got " + datanodes);
    }
    if (zones != null && (zones < 0 || zones > MAX_ZONES)) {
      throw new CliException(2, "--azs must be within [0, " + MAX_ZONES + "], got " + zones);
    }
    if (timeoutSeconds < 1) {
      throw new CliException(2, "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    if (engine != null && !engine.equals(ClusterProperties.POSTGRES) && !engine.equals(ClusterProperties.IGNITE)) {
      throw new CliException(2, "--engine must be " + ClusterProperties.POSTGRES + " or " + ClusterProperties.IGNITE
          + ", got '" + engine + "'");
    }
    if (databaseNodes != null && (databaseNodes < 1 || databaseNodes > MAX_DATABASE_NODES)) {
      throw new CliException(2, "--db-nodes must be within [1, " + MAX_DATABASE_NODES + "], got " + databaseNodes);
    }
    if (databaseNodes != null && ClusterProperties.POSTGRES.equals(engine)) {
      throw new CliException(2, "--db-nodes is for --engine " + ClusterProperties.IGNITE + "; PostgreSQL runs as one "
          + "database process");
    }
    // the Kerberos-only settings are checked by plan(), which knows whether the cluster is secure
    overrides.forEach((key, value) -> ClusterConfigs.checkOverridable(key, value, null));
  }

  private static List<Role> runningRoles(Daemons daemons, Optional<ClusterProperties> previous) throws IOException {
    Set<Role> candidates = new TreeSet<>(Comparator.comparing(Role::kind)
        .thenComparingInt(Role::index));
    candidates.addAll(daemons.rolesWithPidFiles());
    previous.ifPresent(cluster -> cluster.roles().forEach(candidates::add));
    return candidates.stream().filter(role -> daemons.running(role).isPresent()).toList();
  }

  private int alreadyRunning(ClusterLayout layout, Optional<ClusterProperties> previous, List<Role> running,
      PrintWriter out) throws IOException {
    String stopFirst = "; run `canopy down --dir " + layout.root() + "` first";
    if (previous.isEmpty()) {
      throw new CliException("Canopy processes run in " + layout.root() + " (" + running + ") but "
          + layout.propertiesFile() + " is missing" + stopFirst);
    }
    ClusterProperties cluster = previous.get();
    List<Role> expected = new ArrayList<>();
    cluster.roles().forEach(expected::add);
    if (!running.equals(expected)) {
      List<Role> stopped = expected.stream().filter(role -> !running.contains(role)).toList();
      if (stopped.stream().allMatch(role -> role.kind() == Role.Kind.DB_NODE)
          && running.stream().anyMatch(role -> role.kind() == Role.Kind.DB_NODE)) {
        return restartDatabaseNodes(layout, cluster, stopped, out);
      }
      boolean ours = running.stream().allMatch(expected::contains);
      if (restart && ours && stopped.stream().noneMatch(role -> role.kind() == Role.Kind.DB_NODE)) {
        return restartStopped(layout, cluster, stopped, out);
      }
      throw new CliException("Part of the cluster in " + layout.root() + " is running (" + running
          + "; not running: " + stopped + ")" + (ours ? "; run `canopy up --restart --dir " + layout.root()
          + "` to start the stopped processes, or `canopy down --dir " + layout.root() + "` first" : stopFirst));
    }
    boolean sameCounts = (namenodes == null || namenodes == cluster.namenodes())
        && (datanodes == null || datanodes == cluster.datanodes())
        && (zones == null || zones == cluster.zones())
        && (engine == null || engine.equals(cluster.engine()))
        && (databaseNodes == null || databaseNodes == cluster.databaseNodes())
        && (secure == null || secure == cluster.secure());
    boolean sameSettings = !clearSettings && cluster.overrides().entrySet().containsAll(overrides.entrySet());
    if (!sameCounts || !sameSettings) {
      throw new CliException("The cluster in " + layout.root() + " is already running with "
          + Role.count(cluster.namenodes(), Role.Kind.NAMENODE) + ", "
          + Role.count(cluster.datanodes(), Role.Kind.DATANODE) + zonesText(cluster) + " and settings "
          + cluster.overrides()
          + "; to change them run `canopy down --dir " + layout.root() + "` first");
    }
    out.println("Canopy is already running in " + layout.root());
    printNamenodes(cluster, out);
    out.println("fs.defaultFS=" + cluster.defaultFs());
    out.flush();
    return 0;
  }

  /**
   * The rest of the cluster runs and some of its Ignite database nodes do not (killed, or stopped by hand): start
   * them; each rejoins the running ones and catches up on the partitions it holds a copy of.
   */
  private int restartDatabaseNodes(ClusterLayout layout, ClusterProperties cluster, List<Role> stopped,
      PrintWriter out) throws IOException {
    ClusterConfigs.writeAll(layout, cluster);
    return restart(layout, cluster, stopped, "rejoined", out, starter -> starter.startDatabaseNodes(stopped));
  }

  /** {@code canopy up --restart}: starts the cluster's processes that do not run, leaving the others alone. */
  private int restartStopped(ClusterLayout layout, ClusterProperties cluster, List<Role> stopped, PrintWriter out)
      throws IOException {
    return restart(layout, cluster, stopped, "restarted", out, starter -> starter.startStopped(stopped));
  }

  /** What starting {@code stopped} again takes, on a starter of this cluster. */
  private interface RestartStep {
    void run(ClusterStarter starter) throws IOException;
  }

  /** Starts {@code stopped} again with {@code step}, saying so, then prints the cluster's addresses. */
  private int restart(ClusterLayout layout, ClusterProperties cluster, List<Role> stopped, String done,
      PrintWriter out, RestartStep step) throws IOException {
    Daemons daemons = new Daemons(layout);
    for (Role role : stopped) {
      daemons.removePid(role);
    }
    out.println("Canopy runs in " + layout.root() + " without " + Role.names(stopped) + ": restarting "
        + (stopped.size() == 1 ? "it" : "them"));
    out.flush();
    ClusterStarter starter = new ClusterStarter(layout, cluster, DaemonLauncher.forThisJvm(layout), out,
        spec.commandLine().getErr(), Duration.ofSeconds(timeoutSeconds));
    step.run(starter);
    out.println(String.format(Locale.ROOT, "%s %s after %.1f s", Role.names(stopped), done,
        starter.elapsedSeconds()));
    printNamenodes(cluster, out);
    out.println("fs.defaultFS=" + cluster.defaultFs());
    out.flush();
    return 0;
  }

  /** "3 Ignite database nodes, " for a cluster on Ignite that canopy runs, else nothing. */
  static String databaseText(ClusterProperties cluster) {
    if (!cluster.onIgnite()) {
      return "";
    }
    return cluster.externalDatabase() ? "an external Ignite cluster, "
        : cluster.databaseNodes() + " Ignite database node" + (cluster.databaseNodes() == 1 ? "" : "s") + ", ";
  }

  /** ", over N simulated availability zones" for a zoned cluster, else nothing. */
  static String zonesText(ClusterProperties cluster) {
    return cluster.zones() == 0 ? "" : ", over " + cluster.zones() + " simulated availability zone"
        + (cluster.zones() == 1 ? "" : "s");
  }

  /**
   * With several namenodes: where each is, as the nameservice of the client configuration lists them; then the
   * first namenode's HTTP server (status page, WebHDFS) as {@code http=URL}.
   */
  static void printNamenodes(ClusterProperties cluster, PrintWriter out) {
    if (cluster.clientsUseNameservice()) {
      out.println("namenodes (nameservice " + cluster.defaultFs() + "): "
          + String.join(", ", cluster.namenodeAddresses()));
    }
    cluster.httpUrl(Role.namenode(1)).ifPresent(url -> out.println("http=" + url));
  }

  private ClusterProperties plan(Optional<ClusterProperties> previous, PrintWriter out) {
    int namenodeCount = namenodes != null ? namenodes
        : previous.map(ClusterProperties::namenodes).orElse(DEFAULT_NAMENODES);
    int datanodeCount = datanodes != null ? datanodes
        : previous.map(ClusterProperties::datanodes).orElse(DEFAULT_DATANODES);
    int zoneCount = zones != null ? zones : previous.map(ClusterProperties::zones).orElse(0);
    String engineName = chooseEngine(previous);
    int nodeCount = engineName.equals(ClusterProperties.POSTGRES) ? 1 : databaseNodes != null ? databaseNodes
        : previous.filter(ClusterProperties::onIgnite).map(ClusterProperties::databaseNodes)
            .orElse(DEFAULT_IGNITE_NODES);
    Map<String, String> settings = new TreeMap<>();
    if (!clearSettings) {
      previous.ifPresent(cluster -> settings.putAll(cluster.overrides()));
    }
    settings.putAll(overrides);
    boolean secureMode = secure != null ? secure : previous.map(ClusterProperties::secure).orElse(false);
    settings.forEach((key, value) -> ClusterConfigs.checkOverridable(key, value, secureMode));
    MetadataAccess.checkLoginSettings(engineName, settings);
    ClusterConfigs.checkZoneOverrides(zoneCount, settings);
    Map<String, Integer> previousPorts = previous.map(ClusterProperties::ports).orElse(Map.of());
    Map<String, Integer> ports = new TreeMap<>();
    Set<Integer> taken = new HashSet<>();
    if (secureMode) {
      planPort(Role.KDC.name(), "the KDC", previousPorts, ports, taken, out);
    }
    for (Role role : Role.all(ClusterProperties.databaseRoles(engineName, nodeCount, settings), namenodeCount,
        datanodeCount)) {
      planPort(role.name(), role.kind() == Role.Kind.DB_NODE ? "the client connector of " + role : role.toString(),
          previousPorts, ports, taken, out);
      if (role.kind() == Role.Kind.DB_NODE) {
        planPort(ClusterProperties.networkPortKey(role), "the cluster network of " + role, previousPorts, ports, taken,
            out);
        planPort(ClusterProperties.restPortKey(role), "the REST server of " + role, previousPorts, ports, taken, out);
      }
      if (role.kind() == Role.Kind.DATANODE) {
        planPort(ClusterProperties.ipcPortKey(role), "the IPC server of " + role, previousPorts, ports, taken, out);
      }
      if (role.kind() == Role.Kind.NAMENODE) {
        planPort(ClusterProperties.servicePortKey(role), "the service RPC server of " + role, previousPorts, ports,
            taken, out);
        planPort(ClusterProperties.httpPortKey(role), "the HTTP server of " + role, previousPorts, ports, taken, out);
      }
    }
    return new ClusterProperties(engineName, nodeCount, namenodeCount, datanodeCount, zoneCount, ports, settings);
  }

  /**
   * The engine of the cluster: the one its first {@code up} chose (its metadata is there; another engine would start
   * an empty file system), else --engine, else PostgreSQL.
   */
  private String chooseEngine(Optional<ClusterProperties> previous) {
    if (previous.isPresent()) {
      String kept = previous.get().engine();
      if (engine != null && !engine.equals(kept)) {
        throw new CliException(2, "The cluster keeps its metadata on " + kept + "; --engine " + engine + " needs a "
            + "new cluster directory (--dir)");
      }
      if (kept.equals(ClusterProperties.POSTGRES) && databaseNodes != null) {
        throw new CliException(2, "--db-nodes is for --engine " + ClusterProperties.IGNITE + "; this cluster keeps "
            + "its metadata on " + kept);
      }
      return kept;
    }
    if (engine == null && databaseNodes != null) {
      throw new CliException(2, "--db-nodes is for --engine " + ClusterProperties.IGNITE + "; add --engine "
          + ClusterProperties.IGNITE);
    }
    return engine == null ? ClusterProperties.POSTGRES : engine;
  }

  private static void planPort(String key, String what, Map<String, Integer> previousPorts, Map<String, Integer> ports,
      Set<Integer> taken, PrintWriter out) {
    Integer before = previousPorts.get(key);
    int port = Ports.reuseOrPick(before, taken);
    if (before != null && before != port) {
      out.println("port " + before + " of " + what + " is in use; it moves to port " + port);
    }
    ports.put(key, port);
  }
}
