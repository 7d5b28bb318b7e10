package io.canopy.datanode;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/**
 * Process entry point: {@code DataNodeMain CONF_DIR DATA_DIR}. Loads {@code core-site.xml}, {@code hdfs-site.xml}
 * and {@code canopy-site.xml} from CONF_DIR, runs one datanode until it is stopped (SIGTERM shuts it down cleanly).
 */
public final class DataNodeMain {
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
    DataNode dataNode = DataNodeLauncher.start(conf, Path.of(args[1]));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      dataNode.shutdown();
      stopped.countDown();
    }, "datanode-shutdown"));
    stopped.await(); // the datanode's own threads do the work; SIGTERM ends the process through the hook
  }
}
