package io.canopy.cli;

import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.NamespaceFormatter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;

/**
 * Starts a planned cluster in order (database, format if needed, namenodes, datanodes), waiting until each step is
 * ready, within one overall deadline. On any failure it stops whatever it started and throws a {@link CliException}
 * naming the role that is not ready and its log file.
 */
final class ClusterStarter {
  private static final long POLL_MS = 250;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final int LOG_TAIL_LINES = 12;
  private static final long CLOCK_SLACK_MS = 1000;

  private final ClusterLayout layout;
  private final ClusterProperties cluster;
  private final DaemonLauncher launcher;
  private final PrintWriter out;
  /** A terminal's live line while datanodes register and the safe mode ends. */
  private final ProgressLine progressLine;
  private final PrintWriter err;
  private final Deadline deadline;
  private final List<Started> started = new CopyOnWriteArrayList<>();
  private final long startNanos = System.nanoTime();
  /** Set when the JVM is shutting down (SIGINT, SIGTERM) before the cluster was ready. */
  private volatile boolean interrupted;
  private boolean stopped;

  private record Started(Role role, Process process, long logOffset) {
  }

  ClusterStarter(ClusterLayout layout, ClusterProperties cluster, DaemonLauncher launcher, PrintWriter out,
      PrintWriter err, Duration timeout) {
    this.layout = layout;
    this.cluster = cluster;
    this.launcher = launcher;
    this.out = out;
    this.err = err;
    this.deadline = new Deadline(timeout);
    this.progressLine = ProgressLine.forConsole(out);
  }

  /** Starts everything; returns once namenodes answer and every datanode is live. */
  void start() throws IOException {
    run(() -> {
      if (cluster.secure()) {
        startKdc();
      }
      if (cluster.externalDatabase()) {
        progress("metadata in the external database named by " + ClusterProperties.externalKey(cluster.engine()));
      } else if (cluster.onIgnite()) {
        startDatabaseNodes();
      } else {
        startDatabase();
      }
      ensureFormatted();
      startNamenodes();
      startDatanodes();
      awaitSafeModeOff();
    });
  }

  /**
   * A cluster started on an existing namespace is in its startup safe mode until the datanodes have reported their
   * blocks (HDFS's rule); this waits for the leader to end it, printing why it lasts. Safe mode that only an operator
   * ends (turned on manually, or held by blocks from the future after a database restore) is reported, not waited
   * for: the cluster is up, read-only, and the message says what to do.
   */
  private void awaitSafeModeOff() throws IOException {
    int port = cluster.port(Role.namenode(1));
    ClusterProbe probe = new ClusterProbe(ClusterConfigs.loadClient(layout));
    String[] lastTip = {probe.safeModeTip(port)};
    if (lastTip[0] == null) {
      return;
    }
    progress("namenode-1 is in safe mode: " + lastTip[0].replace('\n', ' '));
    String[] operatorOnly = {null};
    waitForAll(started, List::of, "namenode-1 to leave safe mode", () -> {
      String tip = probe.safeModeTip(port);
      if (tip == null) {
        return;
      }
      if (tip.contains("turned on manually") || tip.contains("generation stamps in future")) {
        operatorOnly[0] = tip;
        return;
      }
      if (!tip.equals(lastTip[0])) {
        lastTip[0] = tip;
        progress("safe mode: " + tip.replace('\n', ' '));
      }
      progressLine.show(String.format(Locale.ROOT, "[%5.1fs] waiting for the datanodes' block reports",
          elapsedSeconds()));
      throw new IOException("still in safe mode: " + tip.replace('\n', ' '));
    });
    progressLine.clear();
    if (operatorOnly[0] != null) {
      err.println("WARNING: the cluster is up but stays in safe mode (read-only) until an operator ends it "
          + "(canopy dfsadmin -safemode leave, or forceExit): " + operatorOnly[0].replace('\n', ' '));
      err.flush();
    } else {
      progress("namenode-1 left safe mode: the datanodes reported their blocks");
    }
  }

  /**
   * Starts namenodes of a running cluster ({@code canopy namenode}); returns once they answer RPCs. Stops them
   * again when one does not.
   */
  void startNamenodes(List<Role> roles) throws IOException {
    run(() -> launchNamenodes(roles));
  }

  /**
   * Starts the stopped processes of a running cluster ({@code canopy up --restart}): the database first, then the
   * namenodes, then the datanodes' process(es) whose roles are all stopped; returns once each is ready (the datanodes
   * live again). Stops them again when one does not become ready.
   */
  void startStopped(List<Role> stopped) throws IOException {
    run(() -> {
      if (stopped.contains(Role.KDC)) {
        startKdc();
      }
      if (stopped.contains(Role.DATABASE)) {
        startDatabase();
      }
      List<Role> namenodes = stopped.stream().filter(role -> role.kind() == Role.Kind.NAMENODE).toList();
      if (!namenodes.isEmpty()) {
        launchNamenodes(namenodes);
      }
      List<Role> datanodes = stopped.stream().filter(role -> role.kind() == Role.Kind.DATANODE).toList();
      if (!datanodes.isEmpty()) {
        startDatanodes(datanodes::contains);
      }
    });
  }

  /** The offset of {@code role}'s log where this command started it (0 if it did not start it). */
  long logOffset(Role role) {
    return started.stream().filter(process -> process.role().equals(role)).findFirst().map(Started::logOffset)
        .orElse(0L);
  }

  /** Runs {@code steps}; on failure, or when the JVM is stopped meanwhile, stops whatever they started. */
  private void run(Check steps) throws IOException {
    Thread cleanup = new Thread(() -> {
      interrupted = true;
      stopStartedQuietly();
    }, "canopy-up-interrupted");
    Runtime.getRuntime().addShutdownHook(cleanup);
    boolean ready = false;
    try {
      steps.run();
      ready = true;
    } finally {
      removeHook(cleanup);
      if (!ready && !interrupted) {
        out.println("stopping what this command started");
        out.flush();
        stopStartedQuietly();
      }
    }
  }

  double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /**
   * Starts a secure cluster's KDC (design 023) and waits until it serves and has written the keytabs and krb5.conf
   * that every other process then reads.
   */
  private void startKdc() throws IOException {
    int port = cluster.port(Role.KDC);
    Files.deleteIfExists(layout.kdcReadyMarker());
    Started kdc = launch(Role.KDC, List.of(layout.kdcDir().toString(), Integer.toString(port), SecureMode.user()));
    waitFor(kdc, "the KDC to serve on 127.0.0.1:" + port + " and write its keytabs", () -> {
      if (!Files.exists(layout.kdcReadyMarker())) {
        throw new IOException("no " + layout.kdcReadyMarker() + " yet");
      }
    });
    progress("KDC ready on 127.0.0.1:" + port + " (realm " + SecureMode.REALM + ", keytabs in " + layout.kdcDir()
        + ")");
  }

  private void startDatabase() throws IOException {
    int port = cluster.port(Role.DATABASE);
    Started database = launch(Role.DATABASE, List.of(layout.databaseDir().toString(), layout.secretsDir().toString(),
        Integer.toString(port)));
    waitFor(database, "PostgreSQL to accept connections on 127.0.0.1:" + port, () -> {
      String log = readLogSince(layout.logFile(Role.DATABASE), database.logOffset());
      if (!log.contains("ready jdbc:")) {
        throw new IOException("no 'ready' line in its log yet");
      }
    });
    progress("database ready on 127.0.0.1:" + port);
  }

  /**
   * Starts the Ignite database nodes (design 020) and waits until each serves the cluster. Their first start (no
   * {@link ClusterLayout#igniteInitializedMarker()} yet) begins from empty directories and db-1 initializes the
   * cluster with every node in its meta storage and management group, once all have joined.
   */
  private void startDatabaseNodes() throws IOException {
    launchDatabaseNodes(cluster.databaseRoles());
  }

  /** Starts the database nodes alone ({@link LocalIgniteDatabase}); on failure stops those it started. */
  void startDatabaseTier() throws IOException {
    run(this::startDatabaseNodes);
  }

  /**
   * Starts {@code nodes}, stopped database nodes of a cluster whose other nodes run; returns once each serves the
   * cluster again, or stops them.
   */
  void startDatabaseNodes(List<Role> nodes) throws IOException {
    if (!Files.exists(layout.igniteInitializedMarker())) {
      throw new CliException("The Ignite cluster of " + layout.root() + " was never initialized; run `canopy down "
          + "--dir " + layout.root() + "` and `canopy up` again");
    }
    run(() -> launchDatabaseNodes(nodes));
  }

  private void launchDatabaseNodes(List<Role> nodes) throws IOException {
    boolean first = !Files.exists(layout.igniteInitializedMarker());
    if (first && Files.isDirectory(layout.igniteDir())) {
      FileTrees.deleteContents(layout.igniteDir()); // what a first start that failed half-way left
    }
    String names = String.join(",", cluster.databaseRoles().stream().map(Role::name).toList());
    List<Started> launched = new ArrayList<>();
    for (Role node : nodes) {
      Files.createDirectories(layout.databaseNodeDir(node));
      List<String> arguments = new ArrayList<>(List.of(node.name(), IgniteNodeConfigs.nodeFile(layout, node).toString(),
          layout.databaseNodeDir(node).toString()));
      if (first && node.index() == 1) {
        arguments.addAll(List.of("--init", IgniteNodeConfigs.CLUSTER_NAME, names,
            IgniteNodeConfigs.clusterFile(layout).toString()));
      }
      launched.add(launch(node, arguments));
    }
    for (Started node : launched) {
      String ready = "ready " + node.role().name();
      waitFor(node, "database node " + node.role() + " to join the cluster" + (first ? " and db-1 to initialize it"
          : ""), () -> {
            if (readLogSince(layout.logFile(node.role()), node.logOffset()).lines().noneMatch(ready::equals)) {
              throw new IOException("no '" + ready + "' line in its log yet");
            }
          });
    }
    if (first) {
      Files.createDirectories(layout.igniteDir());
      Files.writeString(layout.igniteInitializedMarker(), "initialized by canopy up\n");
    }
    progress(Role.count(nodes.size(), Role.Kind.DB_NODE) + " ready (Ignite; clients on "
        + String.join(", ", cluster.databaseNodeClientAddresses()) + ")");
  }

  private void ensureFormatted() throws IOException {
    Configuration conf = ClusterConfigs.load(layout.etc());
    try (MetadataStore store = MetadataAccess.open(layout, MetadataAccess.Login.OWNER)) {
      if (NamespaceFormatter.isFormatted(store)) {
        return;
      }
      if (FileTrees.holdsFiles(layout.dataNodesDir())) {
        // The blocks there belong to a namespace that no longer exists; datanodes would refuse the new cluster id.
        FileTrees.deleteContents(layout.dataNodesDir());
        progress("wiped " + layout.dataNodesDir() + ": its blocks belonged to a namespace the database no longer has");
      }
      NamespaceFormatter.format(store, conf, false);
      progress("formatted a new namespace");
    }
  }

  private void startNamenodes() throws IOException {
    List<Role> roles = new ArrayList<>();
    for (int i = 1; i <= cluster.namenodes(); i++) {
      roles.add(Role.namenode(i));
    }
    launchNamenodes(roles);
  }

  private void launchNamenodes(List<Role> roles) throws IOException {
    ClusterProbe probe = new ClusterProbe(ClusterConfigs.loadClient(layout));
    List<Started> namenodes = new ArrayList<>();
    for (Role role : roles) {
      namenodes.add(launch(role, List.of(layout.confDir(role).toString())));
    }
    for (Started namenode : namenodes) {
      int port = cluster.port(namenode.role());
      waitFor(namenode, "its RPC server on 127.0.0.1:" + port + " to answer", () -> probe.checkAnswers(port));
      progress(namenode.role() + " ready on 127.0.0.1:" + port + " (datanodes report to its service port "
          + cluster.servicePort(namenode.role()) + ")");
    }
  }

  private void startDatanodes() throws IOException {
    startDatanodes(role -> true);
  }

  /** Starts the datanode processes whose roles all pass {@code stopped}, then waits until every datanode is live. */
  private void startDatanodes(java.util.function.Predicate<Role> stopped) throws IOException {
    if (cluster.datanodes() == 0) {
      return;
    }
    ClusterProbe probe = new ClusterProbe(ClusterConfigs.loadClient(layout));
    // Heartbeats are stamped by the namenode's clock on this same machine; allow a little rounding.
    long launchedMillis = System.currentTimeMillis() - CLOCK_SLACK_MS;
    // One process runs every datanode (design 014), each with its configuration and data directory; in a cluster
    // laid over simulated zones, one process per zone, so that a zone can be lost as a whole (design 019).
    Map<Integer, List<Role>> byZone = new TreeMap<>();
    for (int i = 1; i <= cluster.datanodes(); i++) {
      Role role = Role.datanode(i);
      byZone.computeIfAbsent(cluster.zoneOf(role), zone -> new ArrayList<>()).add(role);
    }
    List<Started> datanodes = new ArrayList<>();
    for (List<Role> roles : byZone.values()) {
      if (!roles.stream().allMatch(stopped)) {
        continue; // their process runs
      }
      List<String> arguments = new ArrayList<>();
      for (Role role : roles) {
        Files.createDirectories(layout.dataNodeDir(role.index()));
        arguments.add(layout.confDir(role).toString());
        arguments.add(layout.dataNodeDir(role.index()).toString());
      }
      datanodes.addAll(launch(roles, arguments));
    }
    int namenodePort = cluster.port(Role.namenode(1));
    Set<Integer> live = new HashSet<>();
    waitForDatanodes(datanodes, () -> notLive(live), () -> {
      Set<Integer> ports = probe.freshLiveDatanodePorts(namenodePort, launchedMillis);
      live.clear();
      live.addAll(ports);
      progressLine.show(String.format(Locale.ROOT, "[%5.1fs] %d of %d datanodes live", elapsedSeconds(),
          cluster.datanodes() - notLive(live).size(), cluster.datanodes()));
      if (!notLive(live).isEmpty()) {
        throw new IOException("namenode-1 reports " + Role.count(ports.size(), Role.Kind.DATANODE) + " live");
      }
    });
    progress(Role.count(cluster.datanodes(), Role.Kind.DATANODE) + " live");
  }

  private Started launch(Role role, List<String> arguments) throws IOException {
    return launch(List.of(role), arguments).get(0);
  }

  /** Starts one process for {@code roles}: one {@link Started} per role, all of the same process. */
  private List<Started> launch(List<Role> roles, List<String> arguments) throws IOException {
    Path log = layout.logFile(roles.get(0));
    long offset = Files.exists(log) ? Files.size(log) : 0;
    Process process = launcher.start(roles, arguments);
    List<Started> launched = new ArrayList<>();
    for (Role role : roles) {
      launched.add(new Started(role, process, offset));
    }
    started.addAll(launched);
    String names = Role.names(roles) + (roles.size() == 1 ? "" : " in one process");
    progress("started " + names + " (pid " + process.pid() + ", log " + log + ")");
    return launched;
  }

  /** A readiness check: returns when ready, throws with the reason when not (yet). */
  interface Check {
    void run() throws IOException;
  }

  private void waitFor(Started process, String what, Check check) {
    waitForAll(List.of(process), () -> List.of(process.role()), what, check);
  }

  private void waitForDatanodes(List<Started> datanodes, Supplier<List<Role>> notReady,
      Check check) {
    waitForAll(datanodes, notReady, "it to register with namenode-1 (port " + cluster.port(Role.namenode(1)) + ")",
        check);
  }

  private List<Role> notLive(Set<Integer> livePorts) {
    List<Role> missing = new ArrayList<>();
    for (int i = 1; i <= cluster.datanodes(); i++) {
      if (!livePorts.contains(cluster.port(Role.datanode(i)))) {
        missing.add(Role.datanode(i));
      }
    }
    return missing;
  }

  /**
   * Polls {@code check} until it passes; fails early when one of {@code processes} exits, and at the deadline names
   * the first role {@code notReady} reports.
   */
  private void waitForAll(List<Started> processes, Supplier<List<Role>> notReady, String what,
      Check check) {
    String lastProblem = "";
    while (true) {
      for (Started process : processes) {
        if (!process.process().isAlive()) {
          throw failure(process.role(), rolesOf(process.process()) + " exited with status "
              + process.process().exitValue() + " while starting");
        }
      }
      try {
        check.run();
        return;
      } catch (IOException | RuntimeException e) {
        lastProblem = oneLine(e);
      }
      if (deadline.expired()) {
        List<Role> suspects = notReady.get();
        Role suspect = suspects.isEmpty() ? processes.get(0).role() : suspects.get(0);
        String others = suspects.size() > 1 ? " (also not ready: " + suspects.subList(1, suspects.size()) + ")" : "";
        throw failure(suspect, suspect + " is not ready after " + deadline.timeoutSeconds() + " s: waited for "
            + what + others + "; last check: " + lastProblem);
      }
      sleep();
    }
  }

  /** The roles a started process runs, as "datanode-1, datanode-2 (one process)" when it runs several. */
  private String rolesOf(Process process) {
    List<Role> roles = started.stream().filter(other -> other.process() == process).map(Started::role).toList();
    return roles.size() == 1 ? Role.names(roles) : Role.names(roles) + " (one process)";
  }

  private CliException failure(Role role, String message) {
    if (interrupted) {
      return new CliException("interrupted; stopped what it had started");
    }
    Path log = layout.logFile(role);
    err.println("last lines of " + log + ":");
    for (String line : tail(role)) {
      err.println("  " + line);
    }
    err.flush();
    return new CliException(message + "; read " + log);
  }

  /** The last lines this run of {@code role} wrote to its log. */
  private List<String> tail(Role role) {
    long offset = logOffset(role);
    try {
      List<String> lines = readLogSince(layout.logFile(role), offset).lines().toList();
      return lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
    } catch (IOException | UncheckedIOException e) {
      return List.of("(cannot read it: " + e.getMessage() + ")");
    }
  }

  static String readLogSince(Path log, long offset) throws IOException {
    byte[] bytes = Files.readAllBytes(log);
    int from = (int) Math.min(bytes.length, offset);
    return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
  }

  private static String oneLine(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private void progress(String message) {
    progressLine.clear();
    out.println(String.format(Locale.ROOT, "[%5.1fs] %s", elapsedSeconds(), message));
    out.flush();
  }

  /** Stops every process this command started, once, whoever calls first (the failing command or the hook). */
  private synchronized void stopStartedQuietly() {
    if (stopped) {
      return;
    }
    stopped = true;
    List<Daemons.Running> running = new ArrayList<>();
    for (int i = started.size() - 1; i >= 0; i--) {
      Started process = started.get(i);
      if (process.process().isAlive()) {
        running.add(new Daemons.Running(process.role(), process.process().toHandle()));
      }
    }
    try {
      new Daemons(layout).stop(running, STOP_TIMEOUT, out);
    } catch (IOException | RuntimeException e) {
      err.println("could not stop everything: " + e.getMessage() + "; run `canopy down --dir " + layout.root() + "`");
      err.flush();
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook runs and stops what was started.
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while waiting for the cluster to start");
    }
  }

  /** One deadline for the whole start-up. */
  private static final class Deadline {
    private final Duration timeout;
    private final long endNanos;

    Deadline(Duration timeout) {
      this.timeout = timeout;
      this.endNanos = System.nanoTime() + timeout.toNanos();
    }

    boolean expired() {
      return System.nanoTime() - endNanos > 0;
    }

    long timeoutSeconds() {
      return timeout.toSeconds();
    }
  }
}
