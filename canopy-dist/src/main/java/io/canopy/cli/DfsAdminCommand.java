package io.canopy.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "dfsadmin", mixinStandardHelpOptions = true,
    description = {"Run an HDFS administration command (hdfs dfsadmin) against the cluster.",
        "Runs Hadoop's own DFSAdmin with the client configuration in DIR/etc, as the user running canopy (the "
        + "superuser of a cluster it started). Everything after the canopy options goes to DFSAdmin unchanged.",
        "Examples:",
        "  canopy dfsadmin -report",
        "  canopy dfsadmin -safemode get",
        "  canopy dfsadmin -safemode forceExit   (after a database restore: accepts the loss of the newer blocks)",
        "  canopy dfsadmin -setQuota 1000 /projects",
        "  canopy dfsadmin -help"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the command succeeded", "other:DFSAdmin's own exit status"})
public final class DfsAdminCommand implements Callable<Integer> {
  @Mixin
  ClusterDirOption dirOption;

  @Parameters(paramLabel = "DFSADMIN_ARGS", arity = "1..*",
      description = "Arguments of DFSAdmin; --dir must come before them.")
  List<String> arguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    refuseDatanodeReconfiguration(arguments);
    return ClientToolRunner.run(dirOption, DFSAdmin::new, arguments);
  }

  /**
   * The datanodes of a cluster {@code canopy up} started share one JVM (design 014), and a stock DataNode asked to
   * reconfigure re-reads its settings from the JVM's class path: the first datanode's site files, whose data
   * directory it would then take for its own. Refused rather than risk a datanode dropping its volume.
   */
  static void refuseDatanodeReconfiguration(List<String> arguments) {
    int reconfig = arguments.indexOf("-reconfig");
    if (reconfig >= 0 && reconfig + 1 < arguments.size()
        && "datanode".equalsIgnoreCase(arguments.get(reconfig + 1))) {
      throw new CliException(2, "-reconfig datanode is not supported on a cluster canopy up started: its datanodes "
          + "share one JVM, where a datanode would re-read the first datanode's site files (docs/design/014). "
          + "Change the setting with canopy down, canopy up -D KEY=VALUE instead.");
    }
  }
}
