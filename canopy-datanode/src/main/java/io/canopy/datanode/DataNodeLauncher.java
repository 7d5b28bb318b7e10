package io.canopy.datanode;

import io.canopy.client.SecuritySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/**
 * Configures and starts a stock Apache {@link DataNode} for a Canopy cluster: every listener on loopback with a
 * free port, its own data directory, and the Canopy namenode as its file system.
 */
public final class DataNodeLauncher {
  /** How often datanodes heartbeat; tests shorten it with -D. HDFS's default. */
  public static final String HEARTBEAT_INTERVAL_SECONDS_DEFAULT = "3";

  private DataNodeLauncher() {
  }

  /**
   * The settings {@link #configure} applies unless a site file or the caller chose a value: every listener on
   * loopback with a free port, HDFS's heartbeat interval, incremental block reports at once, no reserved disk space.
   * Whoever writes a datanode's site files (the {@code canopy} command line) can write them too, so that a fresh
   * {@code Configuration} read from those files (as {@code DataNode.refreshNamenodes()} reads one) sees the same
   * values as the running datanode.
   */
  public static final Map<String, String> DEFAULTS = defaults();

  private static Map<String, String> defaults() {
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("dfs.datanode.address", "127.0.0.1:0");
    defaults.put("dfs.datanode.http.address", "127.0.0.1:0");
    defaults.put("dfs.datanode.https.address", "127.0.0.1:0");
    defaults.put("dfs.datanode.ipc.address", "127.0.0.1:0");
    defaults.put("dfs.datanode.hostname", "127.0.0.1");
    defaults.put("dfs.heartbeat.interval", HEARTBEAT_INTERVAL_SECONDS_DEFAULT);
    // Report received blocks at once so complete() rarely has to wait.
    defaults.put("dfs.blockreport.incremental.intervalMsec", "0");
    // Several datanodes share one machine: let them use it however full the disk is.
    defaults.put("dfs.datanode.du.reserved", "0");
    return Collections.unmodifiableMap(defaults);
  }

  /** The value of {@code dfs.datanode.data.dir} for blocks stored under {@code dataDirectory}. */
  public static String dataDirValue(Path dataDirectory) {
    return dataDirectory.toAbsolutePath().toUri().toString();
  }

  /**
   * A datanode configuration derived from {@code base} (which carries {@code fs.defaultFS} and any -D overrides)
   * storing blocks under {@code dataDirectory}. Keys already set in {@code base} win, except the data directory.
   */
  public static Configuration configure(Configuration base, Path dataDirectory) {
    Configuration conf = new Configuration(base);
    conf.set("dfs.datanode.data.dir", dataDirValue(dataDirectory));
    DEFAULTS.forEach((key, value) -> setIfUnset(conf, key, value));
    return conf;
  }

  /** Sets {@code key} unless a site file or the caller chose a value (Hadoop's *-default.xml values do not count). */
  private static void setIfUnset(Configuration conf, String key, String value) {
    String[] sources = conf.getPropertySources(key);
    boolean chosen = false;
    if (sources != null) {
      for (String source : sources) {
        chosen |= !source.endsWith("-default.xml");
      }
    }
    if (!chosen) {
      conf.set(key, value);
    }
  }

  /**
   * Starts a datanode in this JVM; it registers with the namenode in the background. Refuses security settings
   * Canopy does not honour ({@link SecuritySettings}).
   */
  public static DataNode start(Configuration base, Path dataDirectory) throws IOException {
    Configuration conf = configure(base, dataDirectory);
    SecuritySettings.checkSupported(conf, "the datanode of " + dataDirectory);
    Files.createDirectories(dataDirectory);
    DataNode dataNode = DataNode.createDataNode(new String[0], conf);
    if (dataNode == null) {
      throw new IOException("The datanode with data directory " + dataDirectory + " did not start; see its log");
    }
    return dataNode;
  }
}
