package io.canopy.namenode.smallfiles;

import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test with the endpoint running on loopback with default settings over an in-memory source, stopped after. */
abstract class EndpointTest {
  static final String POOL = "BP-1-127.0.0.1-1";
  static final long STAMP = 1001;

  final InMemoryBlocks blocks = new InMemoryBlocks();
  SmallBlockReadServer server;

  @BeforeEach
  void startEndpoint() throws IOException {
    server = SmallBlockReadServer.start("127.0.0.1", blocks, SmallBlockReadSettings.defaults(0));
  }

  @AfterEach
  void stopEndpoint() {
    server.close();
  }

  static ExtendedBlock block(long id, long length) {
    return new ExtendedBlock(POOL, id, length, STAMP);
  }
}
