package io.canopy.it;


import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.SymlinkBaseTest;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.extension.RegisterExtension;

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

  /** Each subclass's cluster in turn: started before its tests, stopped after them. */
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true);
    conf.set(FsPermission.UMASK_LABEL, "000");
  }).dataNodes(1).build();

  /**
   * The clients' configuration: the cluster is the default file system, as a MiniDFSCluster's is (the suite reads
   * {@code hdfs:///...} paths, which take their authority from it).
   */
  static Configuration clientConf() {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, CLUSTER.cluster().uri());
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
    return URI.create(CLUSTER.cluster().uri());
  }

  @Override
  protected IOException unwrapException(IOException e) {
    return e instanceof RemoteException remote ? remote.unwrapRemoteException() : e;
  }
}
