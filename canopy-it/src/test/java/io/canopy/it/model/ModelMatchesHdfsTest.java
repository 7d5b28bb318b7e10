package io.canopy.it.model;

import io.canopy.it.ApacheHdfsCluster;
import io.canopy.it.MiniCanopyCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model checked against the real thing: the model-based test with every operation kind against Apache HDFS
 * 3.5.0 (MiniDFSCluster). A model changed to agree with a Canopy bug fails here. Knobs: {@code canopy.model.seed},
 * {@value #OPS_PROPERTY} (default {@value #CI_OPS}) and {@code canopy.model.kinds} (default all).
 */
@Timeout(900)
class ModelMatchesHdfsTest {
  static final String OPS_PROPERTY = "canopy.model.hdfs-ops";
  static final int CI_OPS = 1000;

  @TempDir
  static Path directory;
  static ApacheHdfsCluster hdfs;
  static DistributedFileSystem client;

  @BeforeAll
  static void startCluster() throws IOException {
    hdfs = ApacheHdfsCluster.start(directory, ModelSession.configure(MiniCanopyCluster.testConfiguration()),
        ModelSession.REPLICATION);
    client = hdfs.newFileSystem();
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (client != null) {
      client.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void theModelAnswersAsApacheHdfs() {
    new ModelSession("Apache HDFS", List.of(client), OPS_PROPERTY).run(ModelSession.seed(),
        Integer.getInteger(OPS_PROPERTY, CI_OPS), OpKind.parse(System.getProperty(ModelSession.KINDS_PROPERTY, "all")));
  }
}
