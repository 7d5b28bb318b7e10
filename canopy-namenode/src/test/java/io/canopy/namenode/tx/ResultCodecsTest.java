package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;

/** The retry cache's encodings of append's answer: what a retried append gets must be the first answer. */
class ResultCodecsTest {
  private static HdfsFileStatus status() {
    return new HdfsFileStatus.Builder().length(3000).replication(3).blocksize(65536).mtime(1_000).atime(2_000)
        .perm(new FsPermission((short) 0644)).owner("alice").group("staff").path(new byte[0]).fileId(16_400)
        .build();
  }

  @Test
  void appendAnswerWithAPartialLastBlockRoundTrips() throws IOException {
    DatanodeInfo node = new DatanodeInfo.DatanodeInfoBuilder().setIpAddr("127.0.0.1").setHostName("localhost")
        .setDatanodeUuid("dn-1").setXferPort(9866).setInfoPort(9864).setIpcPort(9867).build();
    LocatedBlock block = new LocatedBlock(new ExtendedBlock("BP-1", 1_073_741_825L, 3000, 1_004),
        new DatanodeInfo[] {node}, new String[] {"DS-1"}, new StorageType[] {StorageType.DISK}, 65_536, false,
        null);
    LastBlockWithStatus decoded = ResultCodecs.decodeLastBlockWithStatus(
        ResultCodecs.encodeLastBlockWithStatus(new LastBlockWithStatus(block, status())));

    assertEquals(block.getBlock(), decoded.getLastBlock().getBlock());
    assertEquals(3000, decoded.getLastBlock().getBlock().getNumBytes());
    assertEquals(1_004, decoded.getLastBlock().getBlock().getGenerationStamp());
    assertEquals(65_536, decoded.getLastBlock().getStartOffset());
    assertEquals("dn-1", decoded.getLastBlock().getLocations()[0].getDatanodeUuid());
    assertArrayEquals(new String[] {"DS-1"}, decoded.getLastBlock().getStorageIDs());
    assertEquals(16_400, decoded.getFileStatus().getFileId());
    assertEquals(3000, decoded.getFileStatus().getLen());
    assertEquals("alice", decoded.getFileStatus().getOwner());
  }

  @Test
  void appendAnswerWithoutABlockRoundTrips() throws IOException {
    LastBlockWithStatus decoded = ResultCodecs.decodeLastBlockWithStatus(
        ResultCodecs.encodeLastBlockWithStatus(new LastBlockWithStatus(null, status())));
    assertNull(decoded.getLastBlock(), "a full last block (or an empty file) hands back no block");
    assertEquals(16_400, decoded.getFileStatus().getFileId());
  }

  @Test
  void aCorruptEntryIsAnIOException() {
    assertThrows(IOException.class,
        () -> ResultCodecs.decodeLastBlockWithStatus("not a protobuf".getBytes(StandardCharsets.UTF_8)));
  }
}
