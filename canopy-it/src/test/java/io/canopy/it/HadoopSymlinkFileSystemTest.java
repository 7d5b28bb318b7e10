package io.canopy.it;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemTestWrapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/** Hadoop's symbolic-link suite through {@code FileSystem} (HDFS: {@code TestSymlinkHdfsFileSystem}). */
@Timeout(120)
class HadoopSymlinkFileSystemTest extends HadoopSymlinkSuite {
  private static FileSystem fs;

  @BeforeAll
  static void setUpClient() throws IOException {
    // The cached instance, as HDFS's bonding uses: the client's link resolver continues on the file system the
    // cache gives for the link's target, which must be this one for the suite's messages to name the paths it
    // expects.
    fs = FileSystem.get(URI.create(CLUSTER.cluster().uri()), clientConf());
    wrapper = new FileSystemTestWrapper(fs, "/tmp/HadoopSymlinkFileSystemTest");
  }

  @AfterAll
  static void closeClient() throws IOException {
    if (fs != null) {
      fs.close(); // also takes it out of the cache
    }
  }

  /**
   * Not run, as HDFS's bonding does not run it ("FileSystem#create creates parent directories, so dangling links to
   * directories are created"): overriding without {@code @Test} takes it out of the suite.
   */
  @Override
  public void testCreateFileViaDanglingLinkParent() {
  }
}
