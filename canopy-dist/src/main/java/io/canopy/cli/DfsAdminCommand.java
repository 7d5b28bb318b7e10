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
    return ClientToolRunner.run(dirOption, DFSAdmin::new, arguments);
  }
}
