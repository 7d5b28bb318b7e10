package io.canopy.cli;

import io.canopy.metadata.postgres.Postmaster;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "down", mixinStandardHelpOptions = true,
    description = {"Stop every process of the cluster.",
        "Sends SIGTERM to the datanodes, then the namenodes, then the database, waiting for each group; "
        + "SIGKILL to what has not exited after --timeout.",
        "Also stops a PostgreSQL server left running on DIR/db by a killed database launcher. Data is kept; "
        + "`canopy up` starts the same cluster again. Nothing running is not an error."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:nothing of the cluster runs any more", "1:a process could not be stopped"})
public final class DownCommand implements Callable<Integer> {
  private static final Role.Kind[] STOP_ORDER = {Role.Kind.DATANODE, Role.Kind.NAMENODE, Role.Kind.DATABASE,
      Role.Kind.DB_NODE, Role.Kind.KDC};

  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "How long each group may take to exit after SIGTERM before it gets SIGKILL "
          + "(default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (timeoutSeconds < 1) {
      throw new CliException(2, "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    ClusterLayout layout = dirOption.layout();
    PrintWriter out = spec.commandLine().getOut();
    if (!Files.isDirectory(layout.root())) {
      out.println("Nothing to stop: " + layout.root() + " does not exist");
      out.flush();
      return 0;
    }
    try (ClusterLock lock = ClusterLock.acquire(layout)) {
      Daemons daemons = new Daemons(layout);
      List<Role> roles = daemons.rolesWithPidFiles();
      int found = 0;
      int stopped = 0;
      for (Role.Kind kind : STOP_ORDER) {
        List<Daemons.Running> group = new ArrayList<>();
        for (Role role : roles) {
          if (role.kind() != kind) {
            continue;
          }
          Optional<ProcessHandle> process = daemons.running(role);
          if (process.isPresent()) {
            group.add(new Daemons.Running(role, process.get()));
          } else {
            daemons.removePid(role);
          }
        }
        found += group.size();
        stopped += daemons.stop(group, Duration.ofSeconds(timeoutSeconds), out);
      }
      int[] orphan = stopOrphanPostgres(layout, out);
      found += orphan[0];
      stopped += orphan[1];
      if (found == 0) {
        out.println("Nothing was running in " + layout.root());
      } else {
        out.println("Stopped " + stopped + " of " + found + " processes in " + layout.root());
      }
      out.flush();
      return stopped == found ? 0 : 1;
    }
  }

  /** Returns {found, stopped}. */
  private int[] stopOrphanPostgres(ClusterLayout layout, PrintWriter out) {
    Optional<ProcessHandle> orphan = Postmaster.orphan(layout.databaseDir());
    if (orphan.isEmpty()) {
      return new int[] {0, 0};
    }
    boolean stopped = Postmaster.stop(orphan.get(), Duration.ofSeconds(timeoutSeconds));
    out.println((stopped ? "stopped" : "could not stop") + " PostgreSQL (pid " + orphan.get().pid()
        + ") left running on " + layout.databaseDir() + " without its launcher");
    return new int[] {1, stopped ? 1 : 0};
  }
}
