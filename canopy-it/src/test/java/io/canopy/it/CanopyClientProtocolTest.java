package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyClientCalls;
import io.canopy.namenode.SmallFilesConfig;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Canopy's own client protocol is served on the namenode's client port beside ClientProtocol (design 016): built by
 * protoc, moved onto Hadoop's relocated protobuf, and registered with the RPC server; the stock client beside it is
 * unaffected.
 */
class CanopyClientProtocolTest {
  private static final int MAX_BYTES = 12_345;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt(SmallFilesConfig.MAX_BYTES, MAX_BYTES)).build();

  @Test
  void theNamenodeAnswersCanopysCallsOnItsClientPort() throws Exception {
    try (CanopyClientCalls calls = new CanopyClientCalls(CLUSTER.cluster().conf(),
        CLUSTER.cluster().nameNode(0).address())) {
      assertEquals(MAX_BYTES, calls.smallFileMaxBytes());
    }
    FileStatus root = CLUSTER.fileSystem().getFileStatus(new org.apache.hadoop.fs.Path("/"));
    assertTrue(root.isDirectory(), "the stock client's calls on the same port");
  }
}
