package io.canopy.it;


import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.SymlinkBaseTest;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Hadoop's own symbolic-link suite ({@code SymlinkBaseTest}, hadoop-common's test jar) bonded to a Canopy cluster,
 * with the settings HDFS's bonding ({@code TestSymlinkHdfs}) uses: scheme {@code hdfs}, base directories
 * {@code /test1} and {@code /test2}, umask 000, RemoteExceptions unwrapped, symlinks enabled on both sides. One
 * subclass per client API, each with its own cluster.
 */
abstract class HadoopSymlinkSuite extends SymlinkBaseTest {
  static {
    FileSystem.enableSymlinks();
  }

  private static Path directory;
  static MiniCanopyCluster cluster;

  static void startCluster(String name) throws IOException {
    directory = Files.createTempDirectory(name);
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true);
    conf.set(FsPermission.UMASK_LABEL, "000");
    cluster = MiniCanopyCluster.start(directory, conf, 1, 1);
  }

  static void stopCluster() throws IOException {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      cluster = null;
      FileUtil.fullyDelete(directory.toFile());
    }
  }

  /**
   * The clients' configuration: the cluster is the default file system, as a MiniDFSCluster's is (the suite reads
   * {@code hdfs:///...} paths, which take their authority from it).
   */
  static Configuration clientConf() {
    Configuration conf = new Configuration(cluster.conf());
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, cluster.uri());
    return conf;
  }

  @Override
  protected String getScheme() {
    return "hdfs";
  }

  @Override
  protected String testBaseDir1() {
    return "/test1";
  }

  @Override
  protected String testBaseDir2() {
    return "/test2";
  }

  @Override
  protected URI testURI() {
    return URI.create(cluster.uri());
  }

  @Override
  protected IOException unwrapException(IOException e) {
    return e instanceof RemoteException remote ? remote.unwrapRemoteException() : e;
  }
}
