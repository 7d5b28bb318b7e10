package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;

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

  /**
   * Hadoop's test of a file reached through a link to its directory (create, stat, read, rename, block locations,
   * checksum, delete), without its append: this branch does not serve append yet (the append part of issue 6
   * does). Once append is merged, delete this override and Hadoop's own version runs.
   */
  @Override
  @Test
  public void testAccessFileViaInterSymlinkAbsTarget() throws IOException {
    org.apache.hadoop.fs.Path baseDir = new org.apache.hadoop.fs.Path(testBaseDir1());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(testBaseDir1(), "file");
    org.apache.hadoop.fs.Path fileNew = new org.apache.hadoop.fs.Path(baseDir, "fileNew");
    org.apache.hadoop.fs.Path linkToDir = new org.apache.hadoop.fs.Path(testBaseDir2(), "linkToDir");
    org.apache.hadoop.fs.Path fileViaLink = new org.apache.hadoop.fs.Path(linkToDir, "file");
    org.apache.hadoop.fs.Path fileNewViaLink = new org.apache.hadoop.fs.Path(linkToDir, "fileNew");
    wrapper.createSymlink(baseDir, linkToDir, false);
    createAndWriteFile(fileViaLink);
    assertTrue(wrapper.exists(fileViaLink));
    assertTrue(wrapper.isFile(fileViaLink));
    assertFalse(wrapper.isDir(fileViaLink));
    assertFalse(wrapper.getFileLinkStatus(fileViaLink).isSymlink());
    assertEquals(wrapper.getFileStatus(file), wrapper.getFileLinkStatus(file));
    assertEquals(wrapper.getFileStatus(fileViaLink), wrapper.getFileLinkStatus(fileViaLink));
    readFile(fileViaLink);
    wrapper.rename(fileViaLink, fileNewViaLink);
    assertFalse(wrapper.exists(fileViaLink));
    assertTrue(wrapper.exists(fileNewViaLink));
    readFile(fileNewViaLink);
    assertEquals(wrapper.getFileBlockLocations(fileNew, 0, 1).length,
        wrapper.getFileBlockLocations(fileNewViaLink, 0, 1).length);
    assertEquals(wrapper.getFileChecksum(fileNew), wrapper.getFileChecksum(fileNewViaLink));
    wrapper.delete(fileNewViaLink, true);
    assertFalse(wrapper.exists(fileNewViaLink));
  }
}
