package io.canopy.namenode;

import io.canopy.client.SecuritySettings;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;

/**
 * Process entry point: {@code NameNodeMain CONF_DIR}. Loads {@code core-site.xml}, {@code hdfs-site.xml} and
 * {@code canopy-site.xml} from CONF_DIR and serves until SIGTERM. Exits with status 2 when the namespace is not
 * formatted or the configuration asks for security Canopy does not support.
 */
public final class NameNodeMain {
  private NameNodeMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: NameNodeMain CONF_DIR");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    for (String file : new String[] {"core-site.xml", "hdfs-site.xml", "canopy-site.xml"}) {
      Path path = Path.of(args[0], file);
      if (path.toFile().isFile()) {
        conf.addResource(new org.apache.hadoop.fs.Path(path.toUri()));
      }
    }
    NameNode nameNode;
    try {
      nameNode = NameNode.start(conf);
    } catch (NameNode.NotFormattedException | SecuritySettings.UnsupportedSecurityException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      nameNode.close();
      stopped.countDown();
    }, "namenode-shutdown"));
    System.out.println("ready " + nameNode.uri() + " service " + NetUtils.getHostPortString(
        nameNode.serviceAddress()));
    stopped.await();
  }
}
