package io.canopy.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Apache HDFS 3.5.0 in the test JVM ({@link MiniDFSCluster} from the hadoop-hdfs test jar), everything on
 * 127.0.0.1: the reference the compatibility tests compare Canopy with. {@link #close()} stops it.
 */
public final class ApacheHdfsCluster implements AutoCloseable {
  private static final String LOOPBACK = "127.0.0.1";
  private final MiniDFSCluster cluster;
  private final Configuration conf;

  private ApacheHdfsCluster(MiniDFSCluster cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
  }

  /** Starts a fresh namespace under {@code directory} with {@code dataNodes} datanodes and {@code settings}. */
  public static ApacheHdfsCluster start(Path directory, Configuration settings, int dataNodes) throws IOException {
    Configuration conf = new Configuration(settings);
    conf.set("hadoop.tmp.dir", directory.resolve("tmp").toString());
    // Loopback only: no wildcard addresses anywhere.
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_BIND_HOST_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HOST_NAME_KEY, LOOPBACK);
    conf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, LOOPBACK + ":0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY, LOOPBACK + ":0");
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, directory.resolve("minidfs").toFile())
        .nameNodePort(0)
        .nameNodeHttpPort(0)
        .numDataNodes(dataNodes)
        .format(true)
        .checkDataNodeAddrConfig(true)
        .checkDataNodeHostConfig(true)
        .build();
    try {
      cluster.waitActive();
      return new ApacheHdfsCluster(cluster, conf);
    } catch (IOException | RuntimeException e) {
      cluster.shutdown();
      throw e;
    }
  }

  /** {@code hdfs://127.0.0.1:PORT}. */
  public String uri() {
    return "hdfs://" + LOOPBACK + ":" + cluster.getNameNodePort();
  }

  public Configuration conf() {
    return conf;
  }

  /** A new client; the caller closes it. */
  public DistributedFileSystem newFileSystem() throws IOException {
    return (DistributedFileSystem) FileSystem.newInstance(URI.create(uri()), new Configuration(conf));
  }

  @Override
  public void close() {
    cluster.shutdown();
  }
}
