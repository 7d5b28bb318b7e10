package io.canopy.it;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextTestWrapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/** Hadoop's symbolic-link suite through {@code FileContext} (HDFS: {@code TestSymlinkHdfsFileContext}). */
@Timeout(120)
class HadoopSymlinkFileContextTest extends HadoopSymlinkSuite {
  @BeforeAll
  static void setUpClient() throws IOException {
    FileContext fc = FileContext.getFileContext(URI.create(CLUSTER.cluster().uri()), clientConf());
    wrapper = new FileContextTestWrapper(fc, "/tmp/HadoopSymlinkFileContextTest");
  }
}
