package io.canopy.cli;

import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/** Runs one of Hadoop's own client tools (FsShell, DFSAdmin) against the cluster with its client configuration. */
final class ClientToolRunner {
  private ClientToolRunner() {
  }

  /** Runs the tool {@code create} makes with the arguments; answers its exit status. */
  static int run(ClusterDirOption dir, Function<Configuration, Tool> create, List<String> arguments)
      throws Exception {
    Configuration conf = ClusterConfigs.loadClient(dir.layout());
    if (UserGroupInformation.isSecurityEnabled()) {
      return runTool(conf, create, arguments);
    }
    // Hadoop caches FileSystem instances per user. Under a user of its own, the tool gets fresh connections
    // (not ones cached before a cluster restart, when run in-process) and this command closes exactly what it
    // opened. With simple authentication the namenode sees the same user name.
    UserGroupInformation user = UserGroupInformation.createRemoteUser(
        UserGroupInformation.getCurrentUser().getShortUserName());
    try {
      return user.doAs((PrivilegedExceptionAction<Integer>) () -> runTool(conf, create, arguments));
    } finally {
      FileSystem.closeAllForUGI(user);
    }
  }

  private static int runTool(Configuration conf, Function<Configuration, Tool> create, List<String> arguments)
      throws Exception {
    Tool tool = create.apply(conf);
    try {
      return ToolRunner.run(conf, tool, arguments.toArray(new String[0]));
    } finally {
      if (tool instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }
}
