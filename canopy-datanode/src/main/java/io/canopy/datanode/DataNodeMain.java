package io.canopy.datanode;

import io.canopy.client.SecuritySettings;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/**
 * Process entry point: {@code DataNodeMain CONF_DIR DATA_DIR}. Loads {@code core-site.xml}, {@code hdfs-site.xml}
 * and {@code canopy-site.xml} from CONF_DIR and runs one datanode. Like the stock datanode main, SIGTERM simply
 * ends the JVM: the datanode's own shutdown hooks persist its replica caches. Exits with status 1 when the
 * datanode stops serving (for instance the namenode refused it), so a dead datanode never lingers as a process, and
 * with status 2 when the configuration asks for security Canopy does not support.
 */
public final class DataNodeMain {
  private static final long STARTUP_GRACE_MS = 60_000;
  private static final long CHECK_INTERVAL_MS = 1_000;

  private DataNodeMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DataNodeMain CONF_DIR DATA_DIR");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    for (String file : new String[] {"core-site.xml", "hdfs-site.xml", "canopy-site.xml"}) {
      Path path = Path.of(args[0], file);
      if (path.toFile().isFile()) {
        conf.addResource(new org.apache.hadoop.fs.Path(path.toUri()));
      }
    }
    DataNode dataNode;
    try {
      dataNode = DataNodeLauncher.start(conf, Path.of(args[1]));
    } catch (SecuritySettings.UnsupportedSecurityException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    long startedMs = System.currentTimeMillis();
    boolean wasUp = false;
    while (true) {
      Thread.sleep(CHECK_INTERVAL_MS);
      boolean up = dataNode.isDatanodeUp();
      wasUp |= up;
      if (!up && (wasUp || System.currentTimeMillis() - startedMs > STARTUP_GRACE_MS)) {
        System.err.println("The datanode serves no block pool any more; see the log above for why. Exiting.");
        dataNode.shutdown();
        System.exit(1);
      }
    }
  }
}
