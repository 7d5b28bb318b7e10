package io.canopy.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FsShell;
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
    return ClientToolRunner.run(dirOption, FsShell::new, shellArguments);
  }
}
