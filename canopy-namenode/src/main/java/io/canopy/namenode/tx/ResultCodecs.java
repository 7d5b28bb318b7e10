package io.canopy.namenode.tx;

import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.AppendResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;

/** Encodings of operation results for the retry cache: HDFS's own protobuf forms where a result has one. */
public final class ResultCodecs {
  private static final byte[] NONE = new byte[0];

  private ResultCodecs() {
  }

  public static byte[] encodeBoolean(Boolean value) {
    return new byte[] {(byte) (value ? 1 : 0)};
  }

  public static Boolean decodeBoolean(byte[] encoded) throws IOException {
    if (encoded.length != 1 || encoded[0] > 1 || encoded[0] < 0) {
      throw new IOException("corrupt retry-cache entry: expected one boolean byte, got " + encoded.length + " bytes");
    }
    return encoded[0] == 1;
  }

  public static byte[] encodeVoid() {
    return NONE;
  }

  public static byte[] encodeStatus(HdfsFileStatus status) {
    return status == null ? NONE : PBHelperClient.convert(status).toByteArray();
  }

  public static HdfsFileStatus decodeStatus(byte[] encoded) throws IOException {
    return encoded.length == 0 ? null : PBHelperClient.convert(HdfsProtos.HdfsFileStatusProto.parseFrom(encoded));
  }

  /** append's answer, as HDFS's own append response message. */
  public static byte[] encodeLastBlockWithStatus(LastBlockWithStatus result) {
    AppendResponseProto.Builder builder = AppendResponseProto.newBuilder();
    if (result.getLastBlock() != null) {
      builder.setBlock(PBHelperClient.convertLocatedBlock(result.getLastBlock()));
    }
    if (result.getFileStatus() != null) {
      builder.setStat(PBHelperClient.convert(result.getFileStatus()));
    }
    return builder.build().toByteArray();
  }

  public static LastBlockWithStatus decodeLastBlockWithStatus(byte[] encoded) throws IOException {
    AppendResponseProto response = AppendResponseProto.parseFrom(encoded);
    return new LastBlockWithStatus(
        response.hasBlock() ? PBHelperClient.convertLocatedBlockProto(response.getBlock()) : null,
        response.hasStat() ? PBHelperClient.convert(response.getStat()) : null);
  }
}
