package io.canopy.namenode.smallfiles;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ClientReadStatusProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.util.DataChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers READ_BLOCK as a datanode does: the status with the checksum and the chunk-aligned offset the data starts at,
 * packets of whole chunks (header, checksums, data) up to the chunk holding the range's last byte, an empty last
 * packet, then the client's read status, which tells whether the connection can take another request.
 */
final class BlockRangeSender {
  private static final Logger LOG = LoggerFactory.getLogger(BlockRangeSender.class);
  /** Chunks per packet: 64 KB of data, the packets a datanode sends when it can. */
  static final int CHUNKS_PER_PACKET = 128;
  private static final int PACKET_BYTES = CHUNKS_PER_PACKET * ChunkChecksums.BYTES_PER_CHECKSUM;
  /** The header's packet length counts its own 4 bytes, then the checksums and the data. */
  private static final int PACKET_LENGTH_BYTES = 4;

  private final BlockLookup lookup;
  private final DataOutputStream out;
  private final DataInputStream in;

  BlockRangeSender(BlockLookup lookup, DataOutputStream out, DataInputStream in) {
    this.lookup = lookup;
    this.out = out;
    this.in = in;
  }

  /**
   * Serves {@code length} bytes (negative: the block's length, as a datanode reads it) from {@code offset}; true when
   * the client read it all and the connection may take its next request.
   */
  boolean send(ExtendedBlock asked, long offset, long length, boolean sendChecksum) throws IOException {
    SmallBlock block;
    try {
      block = lookup.find(asked);
    } catch (BlockRefusal refusal) {
      Replies.status(out, Status.ERROR, refusal.getMessage());
      return false;
    }
    byte[] data = block.data();
    long wanted = length < 0 ? data.length : length;
    if (offset < 0 || offset > data.length || wanted > data.length - offset) {
      Replies.status(out, Status.ERROR, "Offset " + offset + " and length " + length + " don't match block " + asked
          + " ( blockLen " + data.length + " )");
      return false;
    }
    int bytesPerChecksum = ChunkChecksums.BYTES_PER_CHECKSUM;
    int start = (int) (offset - offset % bytesPerChecksum);
    long rangeEnd = offset + wanted;
    int end = (int) Math.min(data.length, ChunkChecksums.chunks(rangeEnd) * (long) bytesPerChecksum);
    DataChecksum checksum = ChunkChecksums.checksum(sendChecksum);
    BlockOpResponseProto.newBuilder().setStatus(Status.SUCCESS)
        .setReadOpChecksumInfo(ReadOpChecksumInfoProto.newBuilder()
            .setChecksum(DataTransferProtoUtil.toProto(checksum)).setChunkOffset(start))
        .build().writeDelimitedTo(out);
    long seqno = 0;
    for (int at = start; at < end; at += PACKET_BYTES) {
      writePacket(checksum, data, seqno++, at, Math.min(PACKET_BYTES, end - at));
    }
    writePacket(checksum, data, seqno, end, 0);
    out.flush();
    return clientReadItAll(asked);
  }

  /** A packet of {@code dataLength} bytes from {@code at}; the empty one is the block's last. */
  private void writePacket(DataChecksum checksum, byte[] data, long seqno, int at, int dataLength)
      throws IOException {
    byte[] sums = ChunkChecksums.sums(checksum, data, at, dataLength);
    new PacketHeader(PACKET_LENGTH_BYTES + sums.length + dataLength, at, seqno, dataLength == 0, dataLength, false)
        .write(out);
    out.write(sums);
    out.write(data, at, dataLength);
  }

  /** The status a reader sends after the last packet; a reader that stops early closes instead. */
  private boolean clientReadItAll(ExtendedBlock asked) {
    try {
      ClientReadStatusProto status = ClientReadStatusProto.parseFrom(PBHelperClient.vintPrefixed(in));
      return status.hasStatus();
    } catch (IOException e) {
      LOG.debug("no read status from the client after {}: {}", asked, e.toString());
      return false;
    }
  }
}
