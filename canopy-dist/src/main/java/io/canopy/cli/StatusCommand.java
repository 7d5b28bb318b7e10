package io.canopy.cli;

import io.canopy.metadata.postgres.Postmaster;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Show which processes of the cluster run, with pids and ports.",
        "One line per role of the cluster in DIR (every namenode and datanode; the datanodes share one process, one per zone with --azs): "
        + "role, running or stopped, pid and port (namenodes: their RPC port for clients, then the service port their datanodes report to; "
        + "datanodes: their data-transfer port, then their IPC port), and a zone's number in a cluster over simulated "
        + "zones. Only "
        + "checks that the processes live; `canopy up` checks that they serve, and `canopy admin namenodes` shows "
        + "the namenodes' ids, heartbeats and leader."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:every process runs", "1:some run, some do not", "3:none runs (or DIR holds no cluster)"})
public final class StatusCommand implements Callable<Integer> {
  public static final int ALL_RUNNING = 0;
  public static final int SOME_RUNNING = 1;
  public static final int NONE_RUNNING = 3;

  @Mixin
  ClusterDirOption dirOption;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    ClusterLayout layout = dirOption.layout();
    PrintWriter out = spec.commandLine().getOut();
    Optional<ClusterProperties> loaded = ClusterProperties.load(layout.propertiesFile());
    if (loaded.isEmpty()) {
      out.println("No Canopy cluster in " + layout.root() + " (`canopy up --dir " + layout.root()
          + "` creates one)");
      out.flush();
      return NONE_RUNNING;
    }
    ClusterProperties cluster = loaded.get();
    Daemons daemons = new Daemons(layout);
    List<Role> roles = new ArrayList<>();
    cluster.roles().forEach(roles::add);
    for (Role extra : daemons.rolesWithPidFiles()) {
      if (!roles.contains(extra) && daemons.running(extra).isPresent()) {
        roles.add(extra);
      }
    }
    out.println("cluster " + layout.root() + "  fs.defaultFS=" + cluster.defaultFs());
    if (cluster.externalDatabase()) {
      out.println("metadata in an external " + (cluster.onIgnite() ? "Ignite cluster" : "database") + " ("
          + ClusterProperties.externalKey(cluster.engine()) + "); not started by canopy");
    } else if (cluster.onIgnite()) {
      out.println("metadata on Apache Ignite 3: " + Role.count(cluster.databaseNodes(), Role.Kind.DB_NODE)
          + " (db-K lines: port is the client connector's)");
    }
    int running = 0;
    for (Role role : roles) {
      Optional<ProcessHandle> process = daemons.running(role);
      running += process.isPresent() ? 1 : 0;
      String port = cluster.ports().containsKey(role.name()) ? Integer.toString(cluster.port(role)) : "-";
      out.println(String.format("%-12s %-8s pid %-8s port %s%s%s", role, process.isPresent() ? "running" : "stopped",
          process.map(handle -> Long.toString(handle.pid())).orElse("-"), port, secondPort(cluster, role),
          zone(cluster, role)));
    }
    if (!cluster.onIgnite() && daemons.running(Role.DATABASE).isEmpty()) {
      OptionalLong orphan = Postmaster.orphan(layout.databaseDir()).map(h -> OptionalLong.of(h.pid()))
          .orElse(OptionalLong.empty());
      if (orphan.isPresent()) {
        out.println("note: PostgreSQL pid " + orphan.getAsLong() + " still runs on " + layout.databaseDir()
            + " without its launcher; `canopy down` stops it");
      }
    }
    out.flush();
    return exitCode(running, roles.size());
  }

  /**
   * A process's other ports, as " ipc PORT" (datanodes) or " service PORT http URL" (namenodes); empty when none.
   */
  private static String secondPort(ClusterProperties cluster, Role role) {
    if (!cluster.ports().containsKey(role.name())) {
      return "";
    }
    if (role.kind() == Role.Kind.DATANODE) {
      return cluster.ipcPort(role).stream().mapToObj(ipcPort -> " ipc " + ipcPort).findFirst().orElse("");
    }
    if (role.kind() == Role.Kind.DB_NODE) {
      Integer network = cluster.ports().get(ClusterProperties.networkPortKey(role));
      Integer rest = cluster.ports().get(ClusterProperties.restPortKey(role));
      return (network == null ? "" : " network " + network) + (rest == null ? "" : " rest " + rest);
    }
    if (role.kind() != Role.Kind.NAMENODE) {
      return "";
    }
    Integer service = cluster.ports().get(ClusterProperties.servicePortKey(role));
    return (service != null ? " service " + service : "")
        + cluster.httpUrl(role).map(url -> " http " + url).orElse("");
  }

  /** " zone K" for a namenode or datanode of a cluster over simulated zones; empty otherwise. */
  private static String zone(ClusterProperties cluster, Role role) {
    boolean zoned = cluster.zones() > 0 && !role.kind().database() && role.kind() != Role.Kind.KDC;
    return zoned ? " zone " + cluster.zoneOf(role) : "";
  }

  /** 0 when all {@code total} processes run, 3 when none does, 1 otherwise. */
  static int exitCode(int running, int total) {
    if (running == 0) {
      return NONE_RUNNING;
    }
    return running == total ? ALL_RUNNING : SOME_RUNNING;
  }
}
