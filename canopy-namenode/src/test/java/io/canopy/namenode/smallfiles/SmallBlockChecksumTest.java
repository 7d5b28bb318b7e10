package io.canopy.namenode.smallfiles;

import static io.canopy.namenode.smallfiles.StockClientReadTest.chunkCrcs;
import static io.canopy.namenode.smallfiles.StockClientReadTest.crc32c;
import static io.canopy.namenode.smallfiles.StockClientReadTest.md5;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.BlockChecksumType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.BlockChecksumTypeProto;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.ChecksumTypeProto;
import org.junit.jupiter.api.Test;

/**
 * BLOCK_CHECKSUM on the small-file endpoint against what a datanode answers for the same bytes: the expected values
 * are computed here with java.util.zip.CRC32C and MD5 only (a datanode stores CRC32C per 512 bytes by default).
 */
class SmallBlockChecksumTest extends EndpointTest {
  private static final BlockChecksumOptions MD5CRC = new BlockChecksumOptions(BlockChecksumType.MD5CRC);


  private OpBlockChecksumResponseProto checksum(ExtendedBlock block, BlockChecksumOptions options)
      throws IOException {
    try (WireClient client = new WireClient(server.address())) {
      client.blockChecksum(block, options);
      BlockOpResponseProto response = client.response();
      assertEquals(Status.SUCCESS, response.getStatus(), response.getMessage());
      OpBlockChecksumResponseProto answer = response.getChecksumResponse();
      assertEquals(512, answer.getBytesPerCrc());
      assertEquals(ChecksumTypeProto.CHECKSUM_CRC32C, answer.getCrcType());
      assertTrue(client.closedByServer(WireClient.TIMEOUT_MS), "a datanode closes after a checksum");
      return answer;
    }
  }

  @Test
  void md5OfTheChunkCrcsOfTheWholeBlock() throws Exception {
    int[] sizes = {0, 1, 511, 512, 513, 4096, 65536};
    for (int i = 0; i < sizes.length; i++) {
      byte[] data = blocks.put(-(i + 1), sizes[i], STAMP);
      OpBlockChecksumResponseProto answer = checksum(new ExtendedBlock(POOL, -(i + 1), sizes[i], STAMP), MD5CRC);
      assertEquals((sizes[i] + 511) / 512, answer.getCrcPerBlock(), sizes[i] + " bytes");
      assertArrayEquals(md5(chunkCrcs(data, sizes[i])), answer.getBlockChecksum().toByteArray(), sizes[i] + " bytes");
      assertEquals(BlockChecksumTypeProto.MD5CRC, answer.getBlockChecksumOptions().getBlockChecksumType());
    }
  }

  @Test
  void aShorterLengthAskedChecksumsThePrefixAndCountsTheWholeBlocksCrcs() throws Exception {
    byte[] data = blocks.put(-20, 2000, STAMP);
    for (int prefix : new int[] {700, 1024, 1}) {
      OpBlockChecksumResponseProto answer = checksum(new ExtendedBlock(POOL, -20, prefix, STAMP), MD5CRC);
      assertArrayEquals(md5(chunkCrcs(data, prefix)), answer.getBlockChecksum().toByteArray(), "prefix " + prefix);
      assertEquals(4, answer.getCrcPerBlock(), "a datanode counts the crcs of its meta file");
    }
  }

  @Test
  void compositeCrcIsTheCrc32cOfEachStripe() throws IOException {
    byte[] data = blocks.put(-21, 3000, STAMP);
    OpBlockChecksumResponseProto whole = checksum(new ExtendedBlock(POOL, -21, 3000, STAMP),
        new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC));
    assertArrayEquals(crc32c(data, 0, 3000), whole.getBlockChecksum().toByteArray());

    OpBlockChecksumResponseProto striped = checksum(new ExtendedBlock(POOL, -21, 3000, STAMP),
        new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC, 1024));
    ByteArrayOutputStream stripes = new ByteArrayOutputStream();
    stripes.write(crc32c(data, 0, 1024));
    stripes.write(crc32c(data, 1024, 1024));
    stripes.write(crc32c(data, 2048, 952));
    assertArrayEquals(stripes.toByteArray(), striped.getBlockChecksum().toByteArray());
    assertEquals(1024, striped.getBlockChecksumOptions().getStripeLength());

    OpBlockChecksumResponseProto prefix = checksum(new ExtendedBlock(POOL, -21, 1500, STAMP),
        new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC));
    assertArrayEquals(crc32c(data, 0, 1500), prefix.getBlockChecksum().toByteArray());
  }

  @Test
  void anUnknownBlockOrAStaleStampIsAnErrorNamingTheBlock() throws IOException {
    blocks.put(-22, 10, STAMP);
    for (ExtendedBlock asked : new ExtendedBlock[] {new ExtendedBlock(POOL, -23, 10, STAMP),
        new ExtendedBlock(POOL, -22, 10, STAMP + 5)}) {
      try (WireClient client = new WireClient(server.address())) {
        client.blockChecksum(asked, MD5CRC);
        BlockOpResponseProto response = client.response();
        assertEquals(Status.ERROR, response.getStatus());
        assertTrue(response.getMessage().contains(asked.toString()), response.getMessage());
      }
    }
  }
}
