package io.canopy.namenode.smallfiles;

import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;

/** The one-message answers of the endpoint: a status and a message naming what went wrong. */
final class Replies {
  private Replies() {
  }

  static void status(DataOutputStream out, Status status, String message) throws IOException {
    BlockOpResponseProto.newBuilder().setStatus(status).setMessage(message).build().writeDelimitedTo(out);
    out.flush();
  }
}
