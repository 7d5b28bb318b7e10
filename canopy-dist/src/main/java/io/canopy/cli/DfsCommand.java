package io.canopy.cli;

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "dfs", mixinStandardHelpOptions = true,
    description = {"Run a Hadoop file system shell command (hdfs dfs) against the cluster.",
        "Runs Hadoop's own FsShell with the client configuration in DIR/etc. Everything after the canopy "
        + "options goes to the shell unchanged, including Hadoop generic options such as -D key=value.",
        "Examples:",
        "  canopy dfs -ls -R /",
        "  canopy dfs -put big.bin /data/",
        "  canopy dfs -D dfs.replication=1 -put small.txt /",
        "  canopy dfs -help"},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the shell command succeeded", "other:the shell's own exit status"})
public final class DfsCommand implements Callable<Integer> {
  @Mixin
  ClusterDirOption dirOption;

  @Parameters(paramLabel = "SHELL_ARGS", arity = "1..*",
      description = "Arguments of the Hadoop shell; --dir must come before them.")
  List<String> shellArguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Configuration conf = ClusterConfigs.loadClient(dirOption.layout());
    if (UserGroupInformation.isSecurityEnabled()) {
      return runShell(conf);
    }
    // Hadoop caches FileSystem instances per user. Under a user of its own, the shell gets fresh connections
    // (not ones cached before a cluster restart, when run in-process) and this command closes exactly what it
    // opened. With simple authentication the namenode sees the same user name.
    UserGroupInformation user = UserGroupInformation.createRemoteUser(
        UserGroupInformation.getCurrentUser().getShortUserName());
    try {
      return user.doAs((PrivilegedExceptionAction<Integer>) () -> runShell(conf));
    } finally {
      FileSystem.closeAllForUGI(user);
    }
  }

  private int runShell(Configuration conf) throws Exception {
    FsShell shell = new FsShell(conf);
    try {
      return ToolRunner.run(conf, shell, shellArguments.toArray(new String[0]));
    } finally {
      shell.close();
    }
  }
}
