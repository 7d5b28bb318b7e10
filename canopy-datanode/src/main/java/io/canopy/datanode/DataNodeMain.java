package io.canopy.datanode;

import io.canopy.client.SecuritySettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Process entry point: {@code DataNodeMain CONF_DIR DATA_DIR [CONF_DIR DATA_DIR ...]}. Runs one stock datanode per
 * pair, each configured from the {@code core-site.xml}, {@code hdfs-site.xml} and {@code canopy-site.xml} of its
 * CONF_DIR and storing blocks under its DATA_DIR. A local cluster runs all its datanodes in one such process, as
 * Hadoop's MiniDFSCluster does: it starts in half the time, with one heap and one JVM's compiled code instead of
 * one per datanode (design 014).
 *
 * <p>Like the stock datanode main, SIGTERM simply ends the JVM: the datanodes' own shutdown hooks persist their
 * replica caches. A datanode that stops serving (for instance the namenode refused it) is shut down and says so;
 * the process exits with status 1 once none serves, so dead datanodes never linger as a process, and with status 2
 * when a configuration asks for security Canopy does not support.
 */
public final class DataNodeMain {
  private static final long STARTUP_GRACE_MS = 60_000;
  private static final long CHECK_INTERVAL_MS = 1_000;

  private DataNodeMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || args.length % 2 != 0) {
      System.err.println("usage: DataNodeMain CONF_DIR DATA_DIR [CONF_DIR DATA_DIR ...]");
      System.exit(2);
    }
    if (args.length > 2) {
      // Each datanode registers the same metrics source names; Hadoop's own multi-datanode JVM does the same.
      DefaultMetricsSystem.setMiniClusterMode(true);
    }
    try {
      List<Served> served = new ArrayList<>();
      for (int i = 0; i < args.length; i += 2) {
        Path dataDirectory = Path.of(args[i + 1]);
        served.add(new Served(dataDirectory, DataNodeLauncher.start(configuration(Path.of(args[i])),
            dataDirectory)));
      }
      watch(served);
      System.err.println("No datanode of this process serves a block pool any more; see the log above for why. "
          + "Exiting.");
    } catch (SecuritySettings.UnsupportedSecurityException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } catch (Throwable e) {
      // The datanodes started before the failure keep non-daemon threads: exit rather than linger half-started.
      System.err.println("A datanode of this process failed: " + e);
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(1);
  }

  /** A datanode's configuration: Hadoop's defaults and the site files of {@code confDirectory}. */
  static Configuration configuration(Path confDirectory) {
    Configuration conf = new Configuration();
    for (String file : new String[] {"core-site.xml", "hdfs-site.xml", "canopy-site.xml"}) {
      Path path = confDirectory.resolve(file);
      if (path.toFile().isFile()) {
        conf.addResource(new org.apache.hadoop.fs.Path(path.toUri()));
      }
    }
    return conf;
  }

  /** Returns once no datanode serves: each is shut down when it stops serving after having served, or never came up. */
  private static void watch(List<Served> served) throws InterruptedException {
    long startedMs = System.currentTimeMillis();
    List<Served> running = new ArrayList<>(served);
    while (!running.isEmpty()) {
      Thread.sleep(CHECK_INTERVAL_MS);
      boolean pastGrace = System.currentTimeMillis() - startedMs > STARTUP_GRACE_MS;
      for (Served datanode : List.copyOf(running)) {
        if (datanode.stoppedServing(pastGrace)) {
          System.err.println("The datanode of " + datanode.dataDirectory + " serves no block pool any more; see "
              + "the log above for why. It is shut down.");
          datanode.dataNode.shutdown();
          running.remove(datanode);
        }
      }
    }
  }

  /** One datanode of the process and whether it has served yet. */
  private static final class Served {
    private final Path dataDirectory;
    private final DataNode dataNode;
    private boolean wasUp;

    Served(Path dataDirectory, DataNode dataNode) {
      this.dataDirectory = dataDirectory;
      this.dataNode = dataNode;
    }

    boolean stoppedServing(boolean pastGrace) {
      boolean up = dataNode.isDatanodeUp();
      wasUp |= up;
      return !up && (wasUp || pastGrace);
    }
  }
}
