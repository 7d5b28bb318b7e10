package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Malformed frames, seeded, against every port a namenode listens on: the client RPC port and the service port (Hadoop
 * IPC: garbage, a good connection header followed by garbage, absurd and negative lengths, a wrong version) and the
 * small-file read port (Canopy's data-transfer server: garbage, unknown operations, truncated and oversized requests).
 * Each connection is sent one frame and read until the server closes it or 250 ms pass; afterwards every port
 * still serves real clients: a metadata call, the datanodes' heartbeats, a database-resident file read by a stock
 * client.
 */
@Timeout(300)
class MalformedFramesTest {
  private static final int FRAMES_PER_PORT = 80;
  private static final int READ_MS = 250;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(1).build();

  /** Hadoop IPC's connection header: "hrpc", version 9, service class 0, no SASL. */
  private static byte[] ipcHeader(int version) {
    return new byte[] {'h', 'r', 'p', 'c', (byte) version, 0, 0};
  }

  private static byte[] ipcFrame(Random random) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    switch (random.nextInt(7)) {
      case 0 -> out.write(randomBytes(random, 1 + random.nextInt(2048)));
      case 1 -> {
        out.write(ipcHeader(9));
        byte[] body = randomBytes(random, random.nextInt(512));
        out.writeInt(body.length);
        out.write(body);
      }
      case 2 -> {
        out.write(ipcHeader(9));
        out.writeInt(Integer.MAX_VALUE);
        out.write(randomBytes(random, random.nextInt(64)));
      }
      case 3 -> {
        out.write(ipcHeader(9));
        out.writeInt(-1 - random.nextInt(1000));
      }
      case 4 -> {
        out.write(ipcHeader(random.nextInt(256)));
        out.write(randomBytes(random, random.nextInt(128)));
      }
      case 5 -> {
        // a frame whose declared length is honest, holding varint-delimited garbage as the request headers
        out.write(ipcHeader(9));
        byte[] body = randomBytes(random, 2 + random.nextInt(200));
        body[0] = (byte) random.nextInt(128);
        out.writeInt(body.length);
        out.write(body);
        out.writeInt(body.length);
        out.write(body);
      }
      default -> out.write(ipcHeader(9), 0, random.nextInt(7));
    }
    return bytes.toByteArray();
  }

  private static byte[] dataTransferFrame(Random random) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    switch (random.nextInt(5)) {
      case 0 -> out.write(randomBytes(random, 1 + random.nextInt(1024)));
      case 1 -> {
        out.writeShort(random.nextInt(65536));
        out.write(randomBytes(random, random.nextInt(128)));
      }
      case 2 -> {
        out.writeShort(DataTransferProtocol.DATA_TRANSFER_VERSION);
        out.writeByte(random.nextInt(256)); // any operation, known or not
        out.write(randomBytes(random, random.nextInt(256)));
      }
      case 3 -> {
        out.writeShort(DataTransferProtocol.DATA_TRANSFER_VERSION);
        out.writeByte(81); // READ_BLOCK with an absurd varint length
        out.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07});
        out.write(randomBytes(random, random.nextInt(64)));
      }
      default -> {
        out.writeShort(DataTransferProtocol.DATA_TRANSFER_VERSION);
        out.writeByte(random.nextBoolean() ? 81 : 85); // READ_BLOCK or BLOCK_CHECKSUM, a short garbage request
        byte[] body = randomBytes(random, random.nextInt(100));
        out.writeByte(body.length);
        out.write(body);
      }
    }
    return bytes.toByteArray();
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Sends {@code frame} on a new connection and reads until the server closes it or {@link #READ_MS} pass. */
  private static void send(InetSocketAddress address, byte[] frame) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(address, 5_000);
      socket.setSoTimeout(READ_MS);
      try {
        OutputStream out = socket.getOutputStream();
        out.write(frame);
        out.flush();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        long until = System.nanoTime() + Duration.ofMillis(READ_MS).toNanos();
        while (System.nanoTime() < until && in.read(buffer) >= 0) {
          // the server's answer, if any, is not looked at: only that it goes on serving
        }
      } catch (SocketTimeoutException | SocketException e) {
        // the server waits for more, or closed the connection first: both fine
      }
    }
  }

  @Test
  void everyPortSurvivesMalformedFramesAndStillServes() throws Exception {
    long seed = System.nanoTime();
    System.out.println("seed " + seed);
    Random random = new Random(seed);
    Configuration canopyClient = new Configuration(CLUSTER.cluster().conf());
    canopyClient.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    byte[] small = TestFiles.randomBytes(700, 5);
    try (FileSystem canopy = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), canopyClient)) {
      TestFiles.write(canopy, new Path("/frames/small"), small, 1024 * 1024);
    }
    var namenode = CLUSTER.cluster().nameNode(0);
    for (int i = 0; i < FRAMES_PER_PORT; i++) {
      send(namenode.address(), ipcFrame(random));
      send(namenode.serviceAddress(), ipcFrame(random));
      send(namenode.smallFileReadAddress(), dataTransferFrame(random));
    }
    DistributedFileSystem stock = CLUSTER.fileSystem();
    assertNotNull(stock.getFileStatus(new Path("/")), "the client port serves");
    assertArrayEquals(small, TestFiles.read(stock, new Path("/frames/small")), "the small-file port serves (seed "
        + seed + ")");
    long before = System.currentTimeMillis();
    Await.until("a heartbeat after the frames on the service port", Duration.ofSeconds(30), () -> {
      for (DatanodeInfo info : stock.getDataNodeStats()) {
        if (info.getLastUpdate() > before) {
          return true;
        }
      }
      return false;
    });
    assertTrue(stock.getDataNodeStats().length == 1, "the datanode is still live");
  }
}
