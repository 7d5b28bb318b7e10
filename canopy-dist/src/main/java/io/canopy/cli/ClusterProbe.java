package io.canopy.cli;

import java.io.IOException;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * Asks a namenode, through the stock HDFS client, whether it serves requests and how many datanodes it sees. Every
 * call fails fast (no connection retries) because the caller polls.
 */
final class ClusterProbe {
  /** What precedes the tip in HDFS's SafeModeException. */
  private static final String SAFE_MODE_PREFIX = "Name node is in safe mode.";

  private final Configuration conf;

  ClusterProbe(Configuration base) {
    conf = new Configuration(base);
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setInt("ipc.client.connect.timeout", 2000);
    conf.setInt("ipc.client.rpc-timeout.ms", 10_000);
    conf.setBoolean("dfs.client.retry.policy.enabled", false);
  }

  /** Lists the root directory through namenode {@code port}; throws what the client threw. */
  void checkAnswers(int port) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri(port), conf)) {
      fs.getFileStatus(new Path("/"));
    }
  }

  /**
   * Data-transfer ports of the datanodes namenode {@code port} reports live, that heartbeated at or after
   * {@code sinceMillis} (wall clock), and whose storage the namenode knows. The second condition keeps a namenode that
   * remembers datanodes from before a restart from passing for one that sees the new processes; a report without a
   * heartbeat time (0) counts as fresh. The third waits for the first heartbeat after registration (which reports
   * the storages, hence a capacity): a datanode that only registered counts as live but cannot take blocks yet, and
   * a write right after {@code canopy up} would find no usable datanode.
   */
  Set<Integer> freshLiveDatanodePorts(int port, long sinceMillis) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri(port), conf)) {
      if (!(fs instanceof DistributedFileSystem dfs)) {
        throw new IOException(uri(port) + " is not served by DistributedFileSystem but " + fs.getClass().getName());
      }
      Set<Integer> ports = new HashSet<>();
      for (DatanodeInfo datanode : dfs.getDataNodeStats(DatanodeReportType.LIVE)) {
        boolean fresh = datanode.getLastUpdate() == 0 || datanode.getLastUpdate() >= sinceMillis;
        if (fresh && datanode.getCapacity() > 0) {
          ports.add(datanode.getXferPort());
        }
      }
      return ports;
    }
  }

  /**
   * Null when namenode {@code port} is out of safe mode; else why it is in (HDFS's safe mode tip, as a refused change
   * states it: "The reported blocks ...", "It was turned on manually ..."). The change tried is a setTimes of the root
   * that changes nothing, refused in safe mode before anything else is looked at.
   */
  String safeModeTip(int port) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri(port), conf)) {
      if (!(fs instanceof DistributedFileSystem dfs) || !dfs.setSafeMode(SafeModeAction.GET)) {
        return null;
      }
      try {
        dfs.setTimes(new Path("/"), -1, -1);
        return "safe mode is on";
      } catch (IOException refused) {
        String message = String.valueOf(refused.getMessage());
        int stack = message.indexOf("\tat "); // a server that sends the stack with the message
        message = stack < 0 ? message : message.substring(0, stack);
        int tip = message.indexOf(SAFE_MODE_PREFIX);
        return (tip < 0 ? message : message.substring(tip + SAFE_MODE_PREFIX.length())).trim();
      }
    }
  }

  private static URI uri(int port) {
    return URI.create("hdfs://127.0.0.1:" + port);
  }
}
