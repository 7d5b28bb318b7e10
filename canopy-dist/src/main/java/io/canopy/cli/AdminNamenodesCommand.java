package io.canopy.cli;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "namenodes", mixinStandardHelpOptions = true,
    description = {"List the namenodes of the cluster as the metadata database records them.",
        "One line per namenode descriptor (table namenodes), in id order: its id, its RPC address, its last "
        + "heartbeat (how long ago its last election round was, and its heartbeat counter), the canopy process "
        + "behind it (role and pid, or `not running`), and the word `leader` on the leader's line (the namenode "
        + "named by the variable leader.id, when its descriptor exists).",
        "A namenode joins with a new id every time it starts and removes its descriptor when it stops cleanly; a "
        + "killed one stays listed, its heartbeat growing old, until the leader evicts it after "
        + NameNodeConfig.ELECTION_MISSED_ROUNDS + " election rounds (" + NameNodeConfig.ELECTION_MISSED_ROUNDS_DEFAULT
        + " rounds of " + NameNodeConfig.ELECTION_ROUND_MS_DEFAULT / 1000 + " s by default).",
        "Like `canopy sql`, it starts the embedded database for this command only when the cluster is down.",
        "Example:",
        "$ canopy admin namenodes",
        "1  127.0.0.1:40111  heartbeat 0.4 s ago (counter 21)  namenode-1 pid 424  leader",
        "2  127.0.0.1:40112  heartbeat 1.1 s ago (counter 20)  namenode-2 pid 425"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:listed (possibly nothing: no namenode has joined)",
        "1:the database could not be read (the message says why)"})
public final class AdminNamenodesCommand implements Callable<Integer> {
  @Mixin
  ClusterDirOption dirOption;

  @ParentCommand
  AdminCommand admin;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    ClusterLayout layout = AdminCommand.layout(dirOption, admin);
    layout.requireCluster();
    ClusterProperties cluster = ClusterProperties.load(layout.propertiesFile()).orElseThrow();
    PrintWriter out = spec.commandLine().getOut();
    NamenodeGroup group = DatabaseSession.withStore(layout, MetadataAccess.Login.READER,
        spec.commandLine().getErr(), store -> NamenodeGroup.read(store, cluster));
    if (group.members().isEmpty()) {
      out.println("No namenode has joined the cluster in " + layout.root() + " (none runs; `canopy up --dir "
          + layout.root() + "` starts them)");
    }
    Daemons daemons = new Daemons(layout);
    long now = System.currentTimeMillis();
    for (NamenodeGroup.Member member : group.members()) {
      out.println(line(member, now, daemons, layout));
    }
    out.flush();
    return 0;
  }

  static String line(NamenodeGroup.Member member, long nowMs, Daemons daemons, ClusterLayout layout) {
    long lastRound = member.descriptor().lastRoundMs();
    String heartbeat = lastRound <= 0 ? "no heartbeat yet"
        : String.format(Locale.ROOT, "heartbeat %.1f s ago", Math.max(0, nowMs - lastRound) / 1000.0);
    return String.format(Locale.ROOT, "%d  %s  %s (counter %d)  %s%s", member.id(), member.descriptor().rpcAddress(),
        heartbeat, member.descriptor().counter(), process(member, daemons, layout), member.leader() ? "  leader" : "");
  }

  private static String process(NamenodeGroup.Member member, Daemons daemons, ClusterLayout layout) {
    if (member.role().isEmpty()) {
      return "not started from " + layout.root();
    }
    Role role = member.role().get();
    Optional<ProcessHandle> process = daemons.running(role);
    return process.map(handle -> role + " pid " + handle.pid()).orElse(role + " not running");
  }
}
