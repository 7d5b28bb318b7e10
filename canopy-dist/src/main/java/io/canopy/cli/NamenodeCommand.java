package io.canopy.cli;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "namenode", mixinStandardHelpOptions = true,
    description = {"Add one namenode to the running cluster.",
        "Starts namenode-(N+1) on free ports of 127.0.0.1 (one for clients, one for datanodes) and waits until it "
        + "answers RPCs (it joins the namenode group on start), records it in DIR/cluster.properties (so `status`, "
        + "`down` and the next `up` know it), "
        + "rewrites the client configuration (DIR/etc, nameservice hdfs://canopy listing every namenode) and the "
        + "datanodes' configuration, then asks every running DataNode to re-read its namenode list "
        + "(ClientDatanodeProtocol.refreshNamenodes, as `hdfs dfsadmin -refreshNamenodes 127.0.0.1:IPC_PORT` does) "
        + "and waits until each has registered with the new namenode.",
        "A DataNode that is not running reads the new list when it starts. If a refresh fails, restart that "
        + "DataNode (or the cluster: `canopy down` then `canopy up`); its configuration already lists the new "
        + "namenode.",
        "With --restart it adds nothing but starts again the namenodes of the cluster that are not running.",
        "Examples:",
        "  canopy up --namenodes 2 && canopy namenode && canopy admin namenodes",
        "  canopy admin kill-namenode 1 && canopy namenode --restart"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the namenode runs and every running datanode registered with it (--restart: every namenode "
        + "runs)",
        "1:it could not be started (nothing changed), or a datanode did not take it (the message names it)",
        "2:invalid arguments"})
public final class NamenodeCommand implements Callable<Integer> {
  private static final long POLL_MS = 250;

  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Give up when the namenode does not answer, or the datanodes have not registered with it, "
          + "after this long (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(names = "--restart",
      description = "Instead of adding a namenode, start again every namenode of the cluster that is not running "
          + "(killed with `canopy admin kill-namenode`, or crashed), each on its own port, which datanodes and "
          + "clients already list. They join the group with new ids.")
  boolean restart;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (timeoutSeconds < 1) {
      throw new CliException(2, "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    ClusterLayout layout = dirOption.layout();
    layout.requireCluster();
    PrintWriter out = spec.commandLine().getOut();
    try (ClusterLock lock = ClusterLock.acquire(layout)) {
      ClusterProperties cluster = ClusterProperties.load(layout.propertiesFile()).orElseThrow();
      Daemons daemons = new Daemons(layout);
      Role role = Role.namenode(cluster.namenodes() + 1);
      if (cluster.databaseRoles().stream().anyMatch(database -> daemons.running(database).isEmpty())) {
        throw new CliException("The cluster in " + layout.root() + " is not running (its database is stopped); "
            + "start it with `canopy up --dir " + layout.root() + "`" + (restart ? "" : " --namenodes "
            + role.index() + " for one more namenode"));
      }
      if (restart) {
        return restartStopped(layout, cluster, deadline, out);
      }
      if (role.index() > UpCommand.MAX_NAMENODES) {
        throw new CliException("The cluster in " + layout.root() + " already has " + cluster.namenodes()
            + " namenodes, the most canopy runs");
      }
      Set<Integer> taken = new HashSet<>(cluster.ports().values());
      ClusterProperties grown = cluster.withAddedNamenode(Ports.reuseOrPick(null, taken),
          Ports.reuseOrPick(null, taken), Ports.reuseOrPick(null, taken));
      daemons.removePid(role);
      out.println("Adding " + role + " on 127.0.0.1:" + grown.port(role) + " (datanodes: service port "
          + grown.servicePort(role) + ") to the cluster in " + layout.root());
      out.flush();
      grown.store(layout.propertiesFile());
      ClusterConfigs.writeAll(layout, grown);
      ClusterStarter starter = new ClusterStarter(layout, grown, DaemonLauncher.forThisJvm(layout), out,
          spec.commandLine().getErr(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      try {
        starter.startNamenodes(List.of(role));
      } catch (IOException | RuntimeException e) {
        cluster.store(layout.propertiesFile());
        ClusterConfigs.writeAll(layout, cluster);
        throw e;
      }
      Configuration conf = ClusterConfigs.loadClient(layout);
      describeMember(layout, grown, role, out);
      List<String> problems = refreshDatanodes(layout, conf, grown, role, starter.logOffset(role), deadline, out);
      out.println(role + " is part of the cluster; the client configuration in " + layout.etc() + " lists "
          + Role.count(grown.namenodes(), Role.Kind.NAMENODE));
      UpCommand.printNamenodes(grown, out);
      out.println("fs.defaultFS=" + grown.defaultFs());
      out.flush();
      if (!problems.isEmpty()) {
        throw new CliException(role + " runs, but " + String.join("; ", problems) + "; restart "
            + (problems.size() == 1 ? "that datanode" : "those datanodes") + " (`canopy down --dir " + layout.root()
            + "` then `canopy up --dir " + layout.root() + "`): their configuration lists " + role);
      }
      return 0;
    }
  }

  /** Starts again every namenode of {@code cluster} that is not running, each on its own port. */
  private int restartStopped(ClusterLayout layout, ClusterProperties cluster, long deadline, PrintWriter out)
      throws IOException {
    Daemons daemons = new Daemons(layout);
    List<Role> stopped = new ArrayList<>();
    for (int i = 1; i <= cluster.namenodes(); i++) {
      if (daemons.running(Role.namenode(i)).isEmpty()) {
        stopped.add(Role.namenode(i));
      }
    }
    if (stopped.isEmpty()) {
      out.println("Every namenode of the cluster in " + layout.root() + " runs (" + Role.count(cluster.namenodes(),
          Role.Kind.NAMENODE) + "); nothing to restart");
      out.flush();
      return 0;
    }
    for (Role role : stopped) {
      for (int port : new int[] {cluster.port(role), cluster.servicePort(role),
          cluster.httpPort(role).orElse(cluster.port(role))}) {
        if (!Ports.isFree(port)) {
          throw new CliException("Cannot restart " + role + " of " + layout.root() + ": its port 127.0.0.1:" + port
              + " is taken by another process (datanodes and clients know it at that port); `canopy down --dir "
              + layout.root() + "` then `canopy up --dir " + layout.root() + "` moves it");
        }
      }
      daemons.removePid(role);
    }
    ClusterStarter starter = new ClusterStarter(layout, cluster, DaemonLauncher.forThisJvm(layout), out,
        spec.commandLine().getErr(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    starter.startNamenodes(stopped);
    for (Role role : stopped) {
      describeMember(layout, cluster, role, out);
    }
    out.println("restarted " + stopped + "; datanodes and clients already list "
        + (stopped.size() == 1 ? "it" : "them"));
    out.flush();
    return 0;
  }

  /** Prints the id the new namenode joined the group with (best effort: the group is read once). */
  private static void describeMember(ClusterLayout layout, ClusterProperties cluster, Role role, PrintWriter out) {
    try (MetadataStore store = MetadataAccess.open(layout, MetadataAccess.Login.READER)) {
      Optional<NamenodeGroup.Member> member = NamenodeGroup.read(store, cluster).memberOf(role);
      member.ifPresent(joined -> out.println(role + " joined the namenode group as namenode " + joined.id()
          + (joined.leader() ? " (the leader)" : "")));
    } catch (IOException | RuntimeException e) {
      out.println("(could not read the namenode group of " + layout.root() + ": " + e.getMessage() + ")");
    }
    out.flush();
  }

  /**
   * Asks every running datanode to re-read its namenode list, then waits until each has registered with
   * {@code namenode} (its log says so). Returns what went wrong, one phrase per datanode.
   */
  private List<String> refreshDatanodes(ClusterLayout layout, Configuration conf, ClusterProperties cluster,
      Role namenode, long logOffset, long deadline, PrintWriter out) throws IOException {
    Daemons daemons = new Daemons(layout);
    DatanodeAdmin admin = new DatanodeAdmin(conf);
    List<String> problems = new ArrayList<>();
    Map<Role, Integer> waiting = new LinkedHashMap<>();
    for (int i = 1; i <= cluster.datanodes(); i++) {
      Role datanode = Role.datanode(i);
      if (daemons.running(datanode).isEmpty()) {
        out.println(datanode + " is not running; it reads the new namenode list when it starts");
        continue;
      }
      OptionalInt ipcPort = cluster.ipcPort(datanode);
      if (ipcPort.isEmpty()) {
        problems.add(datanode + " has no IPC port in " + layout.propertiesFile() + " (it was started by an older "
            + "canopy)");
        continue;
      }
      try {
        admin.refreshNamenodes(ipcPort.getAsInt());
        out.println("asked " + datanode + " (IPC 127.0.0.1:" + ipcPort.getAsInt() + ") to refresh its namenodes");
        waiting.put(datanode, cluster.port(datanode));
      } catch (IOException e) {
        problems.add(datanode + " refused refreshNamenodes on 127.0.0.1:" + ipcPort.getAsInt() + " ("
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
      }
    }
    out.flush();
    while (!waiting.isEmpty()) {
      String log = ClusterStarter.readLogSince(layout.logFile(namenode), logOffset);
      for (Map.Entry<Role, Integer> datanode : List.copyOf(waiting.entrySet())) {
        if (registered(log, datanode.getValue())) {
          out.println(datanode.getKey() + " registered with " + namenode);
          out.flush();
          waiting.remove(datanode.getKey());
        }
      }
      if (waiting.isEmpty()) {
        break;
      }
      if (System.nanoTime() - deadline > 0) {
        for (Role datanode : waiting.keySet()) {
          problems.add(datanode + " has not registered with " + namenode + " within " + timeoutSeconds + " s (see "
              + layout.logFile(datanode) + ")");
        }
        break;
      }
      sleep();
    }
    return problems;
  }

  /** Whether a namenode's log says the datanode with data-transfer port {@code port} registered with it. */
  static boolean registered(String namenodeLog, int port) {
    return Pattern.compile("Registered datanode \\S+ at [^\\s:]+:" + port + "\\b").matcher(namenodeLog).find();
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while waiting for the datanodes to register");
    }
  }
}
