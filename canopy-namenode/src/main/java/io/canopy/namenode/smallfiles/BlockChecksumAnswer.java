package io.canopy.namenode.smallfiles;

import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.io.MD5Hash;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.util.CrcComposer;
import org.apache.hadoop.util.DataChecksum;

/**
 * Answers BLOCK_CHECKSUM with what a datanode computes from its block's stored chunk CRCs, so getFileChecksum of a
 * database-resident file equals that of the same bytes on datanodes: MD5CRC is the MD5 of the chunk CRCs, COMPOSITE_CRC
 * the CRCs composed per stripe. A length shorter than the block (a checksum of a file prefix) covers the chunks up to
 * it, the last one's CRC computed over the bytes before that length, as a datanode does.
 */
final class BlockChecksumAnswer {
  private final BlockLookup lookup;
  private final DataOutputStream out;

  BlockChecksumAnswer(BlockLookup lookup, DataOutputStream out) {
    this.lookup = lookup;
    this.out = out;
  }

  void answer(ExtendedBlock asked, BlockChecksumOptions options) throws IOException {
    SmallBlock block;
    try {
      block = lookup.find(asked);
    } catch (BlockRefusal refusal) {
      Replies.status(out, Status.ERROR, refusal.getMessage());
      return;
    }
    if (asked.getNumBytes() < 0) {
      Replies.status(out, Status.ERROR, "Block " + asked + ": a checksum of a negative length was asked");
      return;
    }
    byte[] data = block.data();
    int covered = (int) Math.min(asked.getNumBytes(), data.length);
    DataChecksum crc32c = ChunkChecksums.checksum(true);
    byte[] crcs = ChunkChecksums.sums(crc32c, data, 0, covered);
    byte[] value;
    switch (options.getBlockChecksumType()) {
      case MD5CRC:
        value = MD5Hash.digest(crcs).getDigest();
        break;
      case COMPOSITE_CRC:
        value = composite(crcs, covered, options.getStripeLength());
        break;
      default:
        Replies.status(out, Status.ERROR_UNSUPPORTED, "Block " + asked + ": unrecognized block checksum type "
            + options.getBlockChecksumType());
        return;
    }
    BlockOpResponseProto.newBuilder().setStatus(Status.SUCCESS)
        .setChecksumResponse(OpBlockChecksumResponseProto.newBuilder()
            .setBytesPerCrc(ChunkChecksums.BYTES_PER_CHECKSUM)
            // A datanode counts the CRCs of its whole block's meta file, whatever length was asked.
            .setCrcPerBlock(ChunkChecksums.chunks(data.length))
            .setBlockChecksum(ByteString.copyFrom(value))
            .setCrcType(PBHelperClient.convert(crc32c.getChecksumType()))
            .setBlockChecksumOptions(PBHelperClient.convert(options)))
        .build().writeDelimitedTo(out);
    out.flush();
  }

  /** The chunk CRCs of {@code length} bytes composed per stripe (one stripe: the whole length when none is asked). */
  private static byte[] composite(byte[] crcs, int length, long stripeLength) {
    long stripe = stripeLength <= 0 || stripeLength > length ? length : stripeLength;
    int bytesPerChecksum = ChunkChecksums.BYTES_PER_CHECKSUM;
    CrcComposer composer = CrcComposer.newStripedCrcComposer(DataChecksum.Type.CRC32C, bytesPerChecksum, stripe);
    int fullChunks = length / bytesPerChecksum;
    int crcBytes = DataChecksum.Type.CRC32C.size;
    composer.update(crcs, 0, fullChunks * crcBytes, bytesPerChecksum);
    if (length % bytesPerChecksum > 0) {
      composer.update(crcs, fullChunks * crcBytes, crcBytes, length % bytesPerChecksum);
    }
    return composer.digest();
  }
}
