package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.namenode.smallfiles.SmallBlock;
import io.canopy.namenode.smallfiles.SmallBlockReadServer;
import io.canopy.namenode.smallfiles.SmallBlockReadSettings;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.BlockChecksumType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small-file endpoint answers READ_BLOCK and BLOCK_CHECKSUM exactly as an Apache 3.5.0 DataNode does for the same
 * bytes: the same files are written to a MiniDFSCluster, and each request is sent to its DataNode and to the endpoint
 * (which holds the bytes under a negative id with the same generation stamp); the answers, status, checksum info and
 * every packet's header, checksums and data, must be equal.
 */
class SmallFileEndpointParityTest {
  private static final int[] SIZES = {1, 511, 512, 513, 4096, 65536};
  private static final long SEED = 42;
  private static final int TIMEOUT_MS = 30_000;

  @TempDir
  static Path directory;
  static ApacheHdfsCluster hdfs;
  static SmallBlockReadServer endpoint;
  /** Per size, the HDFS block and the same block as the endpoint holds it. */
  static final List<ExtendedBlock[]> blocks = new ArrayList<>();

  @BeforeAll
  static void writeTheSameBytesToBoth() throws IOException {
    hdfs = ApacheHdfsCluster.start(directory, new Configuration(false), 1);
    Map<Long, SmallBlock> database = new HashMap<>();
    try (DistributedFileSystem fs = hdfs.newFileSystem()) {
      Random random = new Random(SEED);
      for (int size : SIZES) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/parity-" + size);
        try (FSDataOutputStream out = fs.create(file, (short) 1)) {
          out.write(data);
        }
        LocatedBlock located = fs.getClient().getLocatedBlocks(file.toString(), 0).get(0);
        ExtendedBlock onDatanode = located.getBlock();
        long smallId = -(blocks.size() + 1);
        database.put(smallId, new SmallBlock(data, onDatanode.getGenerationStamp()));
        blocks.add(new ExtendedBlock[] {onDatanode, new ExtendedBlock(onDatanode.getBlockPoolId(), smallId, size,
            onDatanode.getGenerationStamp())});
      }
    }
    endpoint = SmallBlockReadServer.start("127.0.0.1", id -> Optional.ofNullable(database.get(id)),
        SmallBlockReadSettings.defaults(0));
  }

  @AfterAll
  static void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void readsAreAnsweredPacketForPacketAsByTheDatanode() throws IOException {
    for (int i = 0; i < SIZES.length; i++) {
      int size = SIZES[i];
      long[][] ranges = {{0, size}, {0, 1}, {size - 1, 1}, {size / 3, size / 3}, {Math.min(700, size - 1), 1}};
      for (long[] range : ranges) {
        for (boolean checksums : new boolean[] {true, false}) {
          String what = size + " bytes, range " + Arrays.toString(range) + ", checksums " + checksums;
          assertEquals(read(datanode(), blocks.get(i)[0], range, checksums),
              read(endpoint.address(), blocks.get(i)[1], range, checksums), what);
        }
      }
    }
  }

  @Test
  void blockChecksumsAreTheDatanodes() throws IOException {
    BlockChecksumOptions[] options = {new BlockChecksumOptions(BlockChecksumType.MD5CRC),
        new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC),
        new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC, 1024)};
    for (int i = 0; i < SIZES.length; i++) {
      for (long length : new long[] {SIZES[i], SIZES[i] / 2 + 1}) {
        for (BlockChecksumOptions option : options) {
          String what = SIZES[i] + " bytes, checksum of " + length + ", " + option;
          assertEquals(checksum(datanode(), blocks.get(i)[0], length, option),
              checksum(endpoint.address(), blocks.get(i)[1], length, option), what);
        }
      }
    }
  }

  private static InetSocketAddress datanode() throws IOException {
    try (DistributedFileSystem fs = hdfs.newFileSystem()) {
      String xfer = fs.getClient().getLocatedBlocks("/parity-1", 0).get(0).getLocations()[0].getXferAddr();
      return new InetSocketAddress(xfer.substring(0, xfer.indexOf(':')),
          Integer.parseInt(xfer.substring(xfer.indexOf(':') + 1)));
    }
  }

  /** The answer to a read, as text: the status message, then each packet's header, checksums and data. */
  private static List<String> read(InetSocketAddress server, ExtendedBlock block, long[] range, boolean checksums)
      throws IOException {
    try (Socket socket = connect(server); PacketReceiver packets = new PacketReceiver(false)) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
      new Sender(out).readBlock(block, new Token<>(), "parity", range[0], range[1], checksums,
          CachingStrategy.newDefaultStrategy());
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      BlockOpResponseProto response = BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in));
      assertEquals(Status.SUCCESS, response.getStatus(), response.getMessage());
      List<String> answer = new ArrayList<>(List.of(response.toString()));
      do {
        packets.receiveNextPacket(in);
        answer.add(packets.getHeader() + " sums " + hex(packets.getChecksumSlice()) + " data "
            + hex(packets.getDataSlice()));
      } while (!packets.getHeader().isLastPacketInBlock());
      return answer;
    }
  }

  private static String checksum(InetSocketAddress server, ExtendedBlock block, long length,
      BlockChecksumOptions options) throws IOException {
    ExtendedBlock asked = new ExtendedBlock(block);
    asked.setNumBytes(length);
    try (Socket socket = connect(server)) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
      new Sender(out).blockChecksum(asked, new Token<>(), options);
      out.flush();
      BlockOpResponseProto response = BlockOpResponseProto.parseFrom(
          PBHelperClient.vintPrefixed(socket.getInputStream()));
      assertEquals(Status.SUCCESS, response.getStatus(), response.getMessage());
      return response.toString();
    }
  }

  private static Socket connect(InetSocketAddress server) throws IOException {
    Socket socket = new Socket();
    socket.connect(server, TIMEOUT_MS);
    socket.setSoTimeout(TIMEOUT_MS);
    return socket;
  }

  private static String hex(ByteBuffer bytes) {
    byte[] copy = new byte[bytes.remaining()];
    bytes.duplicate().get(copy);
    return HexFormat.of().formatHex(copy);
  }
}
