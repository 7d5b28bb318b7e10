package io.canopy.cli;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.Tool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code canopy hdfs COMMAND ARGS}: Hadoop's own {@code hdfs} command classes against the cluster. */
@Command(name = "hdfs", mixinStandardHelpOptions = true,
    description = {"Run an hdfs command against the cluster, as the hdfs script would.",
        "Runs Hadoop's own command class with the client configuration in DIR/etc, as the user running canopy (the "
        + "superuser of a cluster it started). Everything after the command goes to it unchanged.",
        "Commands: dfs (FsShell), dfsadmin (DFSAdmin), fsck (DFSck, through the namenode's /fsck), getconf (GetConf).",
        "Examples:",
        "  canopy hdfs dfsadmin -report",
        "  canopy hdfs dfsadmin -safemode get",
        "  canopy hdfs dfsadmin -setQuota 1000 /projects",
        "  canopy hdfs fsck / -files -blocks -locations",
        "  canopy hdfs getconf -namenodes"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the command succeeded", "2:an unknown command", "other:the command's own exit status"})
public final class HdfsCommand implements Callable<Integer> {
  /** The hdfs commands canopy runs, by name, and how each tool is made from the client configuration. */
  private static final Map<String, Function<Configuration, Tool>> TOOLS = Map.of(
      "dfs", FsShell::new,
      "dfsadmin", DFSAdmin::new,
      "fsck", HdfsCommand::fsck,
      "getconf", HdfsCommand::getConf);

  @Mixin
  ClusterDirOption dirOption;

  @Parameters(index = "0", paramLabel = "COMMAND", description = "dfs, dfsadmin, fsck or getconf.")
  String command;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "The command's arguments; --dir must come before "
      + "the command.")
  List<String> arguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Function<Configuration, Tool> tool = TOOLS.get(command);
    if (tool == null) {
      throw new CliException(2, "canopy hdfs runs " + String.join(", ", new java.util.TreeSet<>(TOOLS.keySet()))
          + "; not '" + command + "' (the balancer and decommissioning are not supported yet)");
    }
    if (command.equals("dfsadmin")) {
      DfsAdminCommand.refuseDatanodeReconfiguration(arguments);
    }
    return ClientToolRunner.run(dirOption, tool, arguments);
  }

  private static Tool fsck(Configuration conf) {
    try {
      return new DFSck(conf);
    } catch (java.io.IOException e) {
      throw new CliException("Cannot start hdfs fsck: " + e.getMessage());
    }
  }

  /** Hadoop's GetConf, whose constructor is package-private (the hdfs script reaches it through its main). */
  private static Tool getConf(Configuration conf) {
    try {
      Class<?> type = Class.forName("org.apache.hadoop.hdfs.tools.GetConf");
      Constructor<?> constructor = type.getDeclaredConstructor(Configuration.class);
      constructor.setAccessible(true);
      return (Tool) constructor.newInstance(conf);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Hadoop's GetConf cannot be made: " + e, e);
    }
  }
}
