package io.canopy.it;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextTestWrapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/** Hadoop's symbolic-link suite through {@code FileContext} (HDFS: {@code TestSymlinkHdfsFileContext}). */
@Timeout(120)
class HadoopSymlinkFileContextTest extends HadoopSymlinkSuite {
  @BeforeAll
  static void setUpCluster() throws IOException {
    startCluster("symlink-suite-fc");
    FileContext fc = FileContext.getFileContext(URI.create(cluster.uri()), clientConf());
    wrapper = new FileContextTestWrapper(fc, "/tmp/HadoopSymlinkFileContextTest");
  }

  @AfterAll
  static void tearDownCluster() throws IOException {
    stopCluster();
  }
}
