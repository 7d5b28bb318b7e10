package io.canopy.namenode.smallfiles;

import static io.canopy.namenode.smallfiles.EndpointTest.STAMP;
import static io.canopy.namenode.smallfiles.EndpointTest.block;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.SmallFilesConfig;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtocol;
import org.apache.hadoop.hdfs.protocol.datatransfer.Op;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/** The endpoint's connections: ops it refuses, its bounded handlers, many readers at once, and close(). */
class SmallBlockReadServerConnectionsTest {
  private final InMemoryBlocks blocks = new InMemoryBlocks();

  private SmallBlockReadServer start(int handlers, int queued, int keepaliveMs) throws IOException {
    return SmallBlockReadServer.start("127.0.0.1", blocks,
        new SmallBlockReadSettings(0, handlers, queued, WireClient.TIMEOUT_MS, keepaliveMs));
  }

  @Test
  void writesAndOtherOpsAreRefusedAsUnsupported() throws IOException {
    blocks.put(-3, 10, STAMP);
    try (SmallBlockReadServer server = start(2, 2, 1000)) {
      try (WireClient client = new WireClient(server.address())) {
        client.sender().writeBlock(block(-3, 10), StorageType.DISK, new Token<>(), "writer", new DatanodeInfo[0],
            new StorageType[0], null, BlockConstructionStage.PIPELINE_SETUP_CREATE, 1, 0, 0, STAMP,
            DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512), CachingStrategy.newDefaultStrategy(), false,
            false, new boolean[0], null, new String[0]);
        client.out.flush();
        assertUnsupported(client.response(), "WRITE_BLOCK");
        assertTrue(client.closedByServer(WireClient.TIMEOUT_MS), "a refused write's data is not read");
      }
      try (WireClient client = new WireClient(server.address())) {
        client.sender().copyBlock(block(-3, 10), new Token<>());
        client.out.flush();
        assertUnsupported(client.response(), "COPY_BLOCK");
      }
      try (WireClient client = new WireClient(server.address())) {
        client.out.writeShort(DataTransferProtocol.DATA_TRANSFER_VERSION);
        Op.CUSTOM.write(client.out);
        client.out.flush();
        assertUnsupported(client.response(), "op code 127"); // Hadoop 3.5 reads CUSTOM as no op it knows
      }
    }
  }

  private static void assertUnsupported(BlockOpResponseProto response, String op) {
    assertEquals(Status.ERROR_UNSUPPORTED, response.getStatus());
    assertTrue(response.getMessage().startsWith("Canopy's small-file endpoint serves reads only"),
        response.getMessage());
    assertTrue(response.getMessage().contains("writes go to datanodes"), response.getMessage());
    assertTrue(response.getMessage().contains(op), response.getMessage());
  }

  @Test
  void anIdleKeptConnectionGivesItsHandlerToAWaitingOne() throws IOException {
    byte[] data = blocks.put(-4, 2000, STAMP);
    try (SmallBlockReadServer server = start(1, 1, WireClient.TIMEOUT_MS);
        WireClient idle = new WireClient(server.address())) {
      assertEquals(ByteBuffer.wrap(data), idle.readSmallBlockWhole(block(-4, 2000)));
      long start = System.nanoTime();
      assertArrayEquals(data, HadoopBlockReads.read(server.address(), block(-4, 2000), 0, 2000, true));
      long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(waitedMs < WireClient.TIMEOUT_MS / 2, "the second reader waited " + waitedMs + " ms");
      assertTrue(idle.closedByServer(WireClient.TIMEOUT_MS), "the idle connection was closed for the waiting one");
    }
  }

  @Test
  void aConnectionBeyondTheHandlersAndTheQueueIsClosedAtOnce() throws IOException {
    byte[] data = blocks.put(-5, 700, STAMP);
    try (SmallBlockReadServer server = start(1, 1, 1000); WireClient busy = new WireClient(server.address());
        WireClient waiting = new WireClient(server.address())) {
      // The one handler now waits for busy's first request, and waiting waits in the queue.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.acceptedConnections() < 2 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      try (WireClient refused = new WireClient(server.address())) {
        assertTrue(refused.closedByServer(WireClient.TIMEOUT_MS), "no handler and a full queue: closed");
      }
      assertEquals(1, server.refusedConnections());
      for (WireClient client : new WireClient[] {busy, waiting}) {
        assertEquals(ByteBuffer.wrap(data), client.readSmallBlockWhole(block(-5, 700)));
        if (client == busy) {
          assertTrue(busy.closedByServer(WireClient.TIMEOUT_MS), "busy lets its handler go to the waiting one");
        }
      }
    }
  }

  @Test
  void sixteenReadersAtOnceEachReadFiftyBlocksByteForByte() throws Exception {
    int blockCount = 40;
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < blockCount; i++) {
      contents.add(blocks.put(-(100 + i), 1 + (i * 1637) % 65536, STAMP));
    }
    ExecutorService readers = Executors.newFixedThreadPool(16);
    try (SmallBlockReadServer server = start(16, 64, 4000)) {
      List<Future<Integer>> done = new ArrayList<>();
      for (int thread = 0; thread < 16; thread++) {
        Random random = new Random(InMemoryBlocks.SEED + thread);
        done.add(readers.submit(() -> {
          for (int read = 0; read < 50; read++) {
            int i = random.nextInt(blockCount);
            byte[] expected = contents.get(i);
            byte[] got = HadoopBlockReads.read(server.address(), block(-(100 + i), expected.length), 0,
                expected.length, true);
            assertArrayEquals(expected, got, "block " + i + ", seed " + InMemoryBlocks.SEED);
          }
          return 50;
        }));
      }
      int reads = 0;
      for (Future<Integer> each : done) {
        reads += each.get(120, TimeUnit.SECONDS);
      }
      assertEquals(800, reads);
      // the acceptor counts a connection after handing it over, so the last reader can finish first (seen in CI:
      // 799); the count must still reach 800
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.acceptedConnections() < 800 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(800, server.acceptedConnections());
    } finally {
      readers.shutdownNow();
      assertTrue(readers.awaitTermination(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void closeStopsHandlersClosesConnectionsAndReleasesThePort() throws IOException {
    byte[] data = blocks.put(-6, 100, STAMP);
    SmallBlockReadServer server = start(2, 2, WireClient.TIMEOUT_MS);
    InetSocketAddress address = server.address();
    try (WireClient kept = new WireClient(address); WireClient silent = new WireClient(address)) {
      assertEquals(ByteBuffer.wrap(data), kept.readSmallBlockWhole(block(-6, 100)));
      long start = System.nanoTime();
      server.close();
      long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(closeMs < SmallBlockReadServer.CLOSE_WAIT_MS, "close took " + closeMs + " ms");
      assertTrue(kept.closedByServer(WireClient.TIMEOUT_MS));
      assertTrue(silent.closedByServer(WireClient.TIMEOUT_MS));
    }
    assertFalse(handlerThreadsAlive(address.getPort()), "handler threads still running after close");
    try (ServerSocket again = new ServerSocket(address.getPort(), 1, InetAddress.getByName("127.0.0.1"))) {
      assertEquals(address.getPort(), again.getLocalPort());
    }
    server.close(); // a second close is harmless
  }

  @Test
  void aPortInUseIsRefusedNamingTheKey() throws IOException {
    try (SmallBlockReadServer first = start(1, 1, 0)) {
      SmallBlockReadSettings same = new SmallBlockReadSettings(first.address().getPort(), 1, 1, WireClient.TIMEOUT_MS,
          0);
      BindException refused = assertThrows(BindException.class,
          () -> SmallBlockReadServer.start("127.0.0.1", blocks, same));
      assertTrue(refused.getMessage().contains("127.0.0.1:" + first.address().getPort()), refused.getMessage());
      assertTrue(refused.getMessage().contains(SmallFilesConfig.READ_PORT), refused.getMessage());
    }
  }

  private static boolean handlerThreadsAlive(int port) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().startsWith(SmallBlockReadServer.THREAD_PREFIX + port));
  }
}
