package io.canopy.cli;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.namenode.NamespaceFormatter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "format", mixinStandardHelpOptions = true,
    description = {"Create an empty namespace (--force erases an existing one).",
        "Creates an empty namespace in the metadata database of the cluster in DIR (which `canopy up` "
        + "created). Refuses when a namespace exists unless --force, and always while namenodes or datanodes run.",
        "With --force every file is erased: the database is emptied and the datanodes' block directories DIR/dn "
        + "are wiped (the new namespace has a new block pool).",
        "Starts the database inside this command when it is not running. `canopy up` formats by itself on the "
        + "first start, so this is for starting over."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:formatted", "1:refused or failed (the message says why)"})
public final class FormatCommand implements Callable<Integer> {
  @Mixin
  ClusterDirOption dirOption;

  @Option(names = "--force", description = "Erase an existing namespace, its files and every block.")
  boolean force;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    ClusterLayout layout = dirOption.layout();
    Configuration conf = ClusterConfigs.readClient(layout);
    PrintWriter out = spec.commandLine().getOut();
    try (ClusterLock lock = ClusterLock.acquire(layout)) {
      refuseWhileServing(layout);
      try (DatabaseSession session = DatabaseSession.open(layout, MetadataAccess.Login.OWNER,
          spec.commandLine().getErr())) {
        MetadataStore store = session.store();
        if (NamespaceFormatter.isFormatted(store) && !force) {
          NamespaceIdentity identity = store.identity();
          throw new CliException(layout.root() + " already holds a namespace"
              + (identity == null ? "" : " (cluster id " + identity.clusterId() + ")")
              + "; `canopy format --force` erases it with every file and block");
        }
        NamespaceFormatter.format(store, conf, force);
        NamespaceIdentity identity = store.identity();
        out.println("Formatted a new namespace in " + layout.root()
            + (identity == null ? "" : " (cluster id " + identity.clusterId() + ")"));
      }
      if (FileTrees.holdsFiles(layout.dataNodesDir())) {
        // Blocks of the old namespace: datanodes holding them would refuse the new cluster id.
        FileTrees.deleteContents(layout.dataNodesDir());
        out.println("Wiped the datanodes' blocks in " + layout.dataNodesDir());
      }
      out.flush();
      return 0;
    }
  }

  private static void refuseWhileServing(ClusterLayout layout) throws IOException {
    Daemons daemons = new Daemons(layout);
    List<String> serving = new ArrayList<>();
    for (Role role : daemons.rolesWithPidFiles()) {
      if (!role.kind().database() && role.kind() != Role.Kind.KDC) {
        daemons.running(role).ifPresent(process -> serving.add(role + " (pid " + process.pid() + ")"));
      }
    }
    if (!serving.isEmpty()) {
      throw new CliException("Cannot format while these run: " + String.join(", ", serving) + "; stop the cluster "
          + "with `canopy down --dir " + layout.root() + "` first");
    }
  }
}
