package io.canopy.namenode.smallfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.ChecksumTypeProto;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/** READ_BLOCK on the small-file endpoint, read with Hadoop's own client classes against an in-memory source. */
class SmallBlockReadServerTest extends EndpointTest {


  @Test
  void readsEveryBoundarySizeByteForByteWithChecksumsVerified() throws IOException {
    int[] sizes = {1, 511, 512, 513, 4096, 65536, 200_000};
    for (int i = 0; i < sizes.length; i++) {
      long id = -(i + 10);
      byte[] data = blocks.put(id, sizes[i], STAMP);
      assertArrayEquals(data, HadoopBlockReads.read(server.address(), block(id, sizes[i]), 0, sizes[i], true),
          sizes[i] + " bytes, seed " + InMemoryBlocks.SEED);
      assertArrayEquals(data, HadoopBlockReads.read(server.address(), block(id, sizes[i]), 0, sizes[i], false),
          sizes[i] + " bytes without checksums, seed " + InMemoryBlocks.SEED);
    }
  }

  @Test
  void readsRangesThatStartAndEndInsideChunks() throws IOException {
    int size = 4096 + 700;
    byte[] data = blocks.put(-5, size, STAMP);
    int[][] ranges = {{0, 1}, {1, 510}, {511, 2}, {700, 100}, {1000, 3000}, {4095, 701}, {size - 1, 1}, {512, 512}};
    for (int[] range : ranges) {
      byte[] read = HadoopBlockReads.read(server.address(), block(-5, size), range[0], range[1], true);
      assertArrayEquals(Arrays.copyOfRange(data, range[0], range[0] + range[1]), read,
          "range " + range[0] + "+" + range[1] + ", seed " + InMemoryBlocks.SEED);
    }
  }

  @Test
  void answersLikeADatanodeFromTheChunkStartAndKeepsTheConnectionForTheNextRequest() throws IOException {
    byte[] data = blocks.put(-6, 3000, STAMP);
    try (WireClient client = new WireClient(server.address())) {
      for (int request = 0; request < 2; request++) {
        client.readBlock(block(-6, 3000), 700, 100, true);
        BlockOpResponseProto response = client.response();
        assertEquals(Status.SUCCESS, response.getStatus());
        ReadOpChecksumInfoProto info = response.getReadOpChecksumInfo();
        assertEquals(ChecksumTypeProto.CHECKSUM_CRC32C, info.getChecksum().getType());
        assertEquals(512, info.getChecksum().getBytesPerChecksum());
        assertEquals(512, info.getChunkOffset(), "the datanode starts at the chunk holding the first byte");

        PacketReceiver packet = client.nextPacket();
        PacketHeader header = packet.getHeader();
        assertEquals(0, header.getSeqno());
        assertEquals(512, header.getOffsetInBlock());
        assertEquals(512, header.getDataLen(), "the range ends inside chunk 1: the whole chunk is sent");
        assertFalse(header.isLastPacketInBlock());
        assertEquals(ByteBuffer.wrap(data, 512, 512), packet.getDataSlice());
        assertEquals(ByteBuffer.wrap(crc32cSums(data, 512, 512)), packet.getChecksumSlice());

        header = client.nextPacket().getHeader();
        assertTrue(header.isLastPacketInBlock());
        assertEquals(0, header.getDataLen());
        assertEquals(1, header.getSeqno());
        assertEquals(1024, header.getOffsetInBlock());
        client.sendStatus(Status.CHECKSUM_OK);
      }
      assertFalse(client.closedByServer(200), "the connection is kept for the next request");
    }
    assertEquals(1, server.acceptedConnections());
  }

  @Test
  void aZeroByteBlockIsAnsweredWithTheLastEmptyPacketOnly() throws IOException {
    blocks.put(-8, 0, STAMP);
    try (WireClient client = new WireClient(server.address())) {
      client.readBlock(block(-8, 0), 0, 0, true);
      BlockOpResponseProto response = client.response();
      assertEquals(Status.SUCCESS, response.getStatus());
      assertEquals(0, response.getReadOpChecksumInfo().getChunkOffset());
      PacketHeader header = client.nextPacket().getHeader();
      assertTrue(header.isLastPacketInBlock());
      assertEquals(0, header.getDataLen());
      assertEquals(0, header.getSeqno());
    }
  }

  @Test
  void withoutChecksumsAskedThePacketsCarryNone() throws IOException {
    byte[] data = blocks.put(-9, 1500, STAMP);
    try (WireClient client = new WireClient(server.address())) {
      client.readBlock(block(-9, 1500), 0, -1, false);
      BlockOpResponseProto response = client.response();
      assertEquals(ChecksumTypeProto.CHECKSUM_NULL, response.getReadOpChecksumInfo().getChecksum().getType());
      PacketReceiver packet = client.nextPacket();
      assertEquals(1500, packet.getHeader().getDataLen(), "length -1 asks for the rest of the block");
      assertEquals(0, packet.getChecksumSlice().remaining());
      assertEquals(ByteBuffer.wrap(data), packet.getDataSlice());
    }
  }

  @Test
  void anUnknownBlockIsRefusedNamingIt() throws IOException {
    IOException refused = assertThrows(IOException.class,
        () -> HadoopBlockReads.read(server.address(), block(-404, 10), 0, 10, true));
    assertTrue(refused.getMessage().contains("status=ERROR,"), refused.getMessage());
    assertTrue(refused.getMessage().contains("blk_-404_" + STAMP + " is not in the database"), refused.getMessage());
  }

  @Test
  void aGenerationStampOlderThanAskedIsRefusedAndANewerOneServed() throws IOException {
    byte[] data = blocks.put(-11, 100, STAMP);
    ExtendedBlock newer = new ExtendedBlock(POOL, -11, 100, STAMP + 1);
    IOException refused = assertThrows(IOException.class,
        () -> HadoopBlockReads.read(server.address(), newer, 0, 100, true));
    assertTrue(refused.getMessage().contains("status=ERROR,"), refused.getMessage());
    assertTrue(refused.getMessage().contains("blk_-11_" + (STAMP + 1)), refused.getMessage());
    assertTrue(refused.getMessage().contains("generation stamp " + STAMP), refused.getMessage());
    ExtendedBlock older = new ExtendedBlock(POOL, -11, 100, STAMP - 1);
    assertArrayEquals(data, HadoopBlockReads.read(server.address(), older, 0, 100, true));
  }

  @Test
  void aDatanodeBlockIsRefusedNamingIt() {
    IOException refused = assertThrows(IOException.class,
        () -> HadoopBlockReads.read(server.address(), block(1_073_741_825L, 10), 0, 10, true));
    assertTrue(refused.getMessage().contains("status=ERROR,"), refused.getMessage());
    assertTrue(refused.getMessage().contains("blk_1073741825_" + STAMP + " is a datanode block"),
        refused.getMessage());
    assertEquals(0, blocks.reads(), "a datanode block is refused without reading the database");
  }

  @Test
  void aRangeBeyondTheBlockIsRefusedWithItsLength() throws IOException {
    blocks.put(-12, 1000, STAMP);
    for (long[] range : new long[][] {{1001, 1}, {990, 11}, {-1, 5}}) {
      IOException refused = assertThrows(IOException.class,
          () -> HadoopBlockReads.read(server.address(), block(-12, 1000), range[0], (int) range[1], true));
      assertTrue(refused.getMessage().contains("status=ERROR,"), refused.getMessage());
      assertTrue(refused.getMessage().contains("Offset " + range[0] + " and length " + range[1]
          + " don't match block"), refused.getMessage());
      assertTrue(refused.getMessage().contains("blockLen 1000"), refused.getMessage());
    }
  }

  @Test
  void aDatabaseErrorIsAnsweredAsAnErrorNamingTheBlockAndTheCause() throws IOException {
    blocks.put(-13, 10, STAMP);
    blocks.failWith("database unavailable");
    IOException refused = assertThrows(IOException.class,
        () -> HadoopBlockReads.read(server.address(), block(-13, 10), 0, 10, true));
    assertTrue(refused.getMessage().contains("blk_-13_" + STAMP), refused.getMessage());
    assertTrue(refused.getMessage().contains("database unavailable"), refused.getMessage());
  }

  static byte[] crc32cSums(byte[] data, int offset, int length) {
    DataChecksum checksum = DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);
    byte[] sums = new byte[((length + 511) / 512) * checksum.getChecksumSize()];
    checksum.calculateChunkedSums(data, offset, length, sums, 0);
    return sums;
  }
}
