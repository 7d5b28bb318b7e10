package io.canopy.cli;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.membership.ElectionSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "kill-namenode", mixinStandardHelpOptions = true,
    description = {"Kill one namenode process with SIGKILL, as a crash would.",
        "ID is the namenode's id in the group, as `canopy admin namenodes` lists it (a namenode gets a new id every "
        + "time it starts). Finds the process of this cluster directory listening on that namenode's RPC address "
        + "and kills it without letting it leave the group: the others notice its missed heartbeats and the leader "
        + "evicts it after canopy.namenode.election.missed-rounds rounds; if it was the leader, the smallest live id "
        + "leads next. Clients and datanodes fail over to the other namenodes.",
        "The namenode stays in the cluster's configuration: `canopy status` shows it stopped, and `canopy namenode "
        + "--restart` starts it again (with a new id).",
        "Example:",
        "  canopy admin namenodes          # find the leader's id, say 1",
        "  canopy admin kill-namenode 1"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:killed", "1:no namenode with that id, not one of this directory, not running, or it "
        + "survived SIGKILL", "2:invalid arguments"})
public final class KillNamenodeCommand implements Callable<Integer> {
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);

  @Mixin
  ClusterDirOption dirOption;

  @Parameters(index = "0", paramLabel = "ID", description = "The namenode's id (first column of `canopy admin "
      + "namenodes`).")
  long id;

  @ParentCommand
  AdminCommand admin;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (id <= 0) {
      throw new CliException(2, "a namenode id is a positive number, got " + id);
    }
    ClusterLayout layout = AdminCommand.layout(dirOption, admin);
    Configuration conf = ClusterConfigs.readClient(layout);
    ClusterProperties cluster = ClusterProperties.load(layout.propertiesFile()).orElseThrow();
    PrintWriter out = spec.commandLine().getOut();
    NamenodeGroup group = DatabaseSession.withStore(layout, MetadataAccess.Login.READER,
        spec.commandLine().getErr(), store -> NamenodeGroup.read(store, cluster));
    String listThem = "; `canopy admin namenodes --dir " + layout.root() + "` lists them";
    NamenodeGroup.Member member = group.member(id).orElseThrow(() -> new CliException("No namenode with id " + id
        + " in the cluster in " + layout.root() + " (ids now: " + (group.members().isEmpty() ? "none"
        : group.members().stream().map(m -> Long.toString(m.id())).collect(Collectors.joining(", "))) + ")"
        + listThem));
    String address = member.descriptor().rpcAddress();
    Role role = member.role().orElseThrow(() -> new CliException("Namenode " + id + " (" + address + ") was not "
        + "started from " + layout.root() + ": no namenode of this directory listens there, and canopy kills only "
        + "processes it started"));
    ElectionSettings election = NameNodeConfig.electionSettings(conf);
    long roundMs = group.roundMs().orElse(election.roundMs());
    String detection = "the other namenodes see it dead after " + election.missedRounds() + " missed election rounds "
        + "of " + roundMs + " ms";
    Daemons daemons = new Daemons(layout);
    ProcessHandle process = daemons.running(role).orElseThrow(() -> new CliException("Namenode " + id + " ("
        + role + ", " + address + ") of " + layout.root() + " is not running (killed or stopped already; "
        + detection + ", then the leader evicts it)"));
    process.destroyForcibly();
    if (!Daemons.awaitExit(process, KILL_WAIT)) {
      throw new CliException("Namenode " + id + " (" + role + ", pid " + process.pid() + ") still runs "
          + KILL_WAIT.toSeconds() + " s after SIGKILL");
    }
    daemons.removePid(role);
    out.println("killed namenode " + id + " (" + role + ", pid " + process.pid() + ", " + address + ") with "
        + "SIGKILL");
    if (member.leader()) {
      Optional<NamenodeGroup.Member> next = group.members().stream().filter(other -> other.id() != id).findFirst();
      out.println("it was the leader: " + detection + ", then the smallest live id leads"
          + next.map(other -> " (namenode " + other.id() + " if it lives)").orElse(" (no other namenode is listed)")
          + " and evicts it");
    } else {
      out.println(detection + ", then the leader evicts it");
    }
    out.flush();
    return 0;
  }
}
