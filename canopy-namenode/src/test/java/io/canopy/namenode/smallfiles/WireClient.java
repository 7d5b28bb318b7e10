package io.canopy.namenode.smallfiles;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ClientReadStatusProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.security.token.Token;

/**
 * One data-transfer connection driven by hand with Hadoop's client-side classes ({@link Sender},
 * {@link PacketReceiver}), for what the real block reader does not show: the packets, reuse of a connection, ops a
 * reader never sends.
 */
final class WireClient implements AutoCloseable {
  /** How long a test waits for any answer. */
  static final int TIMEOUT_MS = 30_000;

  private final Socket socket;
  final DataOutputStream out;
  final DataInputStream in;
  private PacketReceiver packets = new PacketReceiver(false);

  WireClient(InetSocketAddress server) throws IOException {
    socket = new Socket();
    socket.connect(server, TIMEOUT_MS);
    socket.setSoTimeout(TIMEOUT_MS);
    out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    in = new DataInputStream(socket.getInputStream());
  }

  Sender sender() {
    return new Sender(out);
  }

  void readBlock(ExtendedBlock block, long offset, long length, boolean sendChecksum) throws IOException {
    sender().readBlock(block, new Token<>(), "wire-client", offset, length, sendChecksum,
        CachingStrategy.newDefaultStrategy());
    out.flush();
  }

  /**
   * Reads a block of at most one packet whole, as a reader does (the data packet, the empty last one, then the read
   * status), so that the server keeps the connection; returns the data packet's bytes.
   */
  ByteBuffer readSmallBlockWhole(ExtendedBlock block) throws IOException {
    readBlock(block, 0, block.getNumBytes(), true);
    BlockOpResponseProto response = response();
    if (response.getStatus() != Status.SUCCESS) {
      throw new IOException("read of " + block + " answered " + response.getStatus() + ": " + response.getMessage());
    }
    ByteBuffer data = ByteBuffer.allocate((int) block.getNumBytes()).put(nextPacket().getDataSlice()).flip();
    nextPacket();
    sendStatus(Status.CHECKSUM_OK);
    return data;
  }

  void blockChecksum(ExtendedBlock block, BlockChecksumOptions options) throws IOException {
    sender().blockChecksum(block, new Token<>(), options);
    out.flush();
  }

  BlockOpResponseProto response() throws IOException {
    return BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in));
  }

  /** The next packet; its header, checksums and data stay readable until the next. */
  PacketReceiver nextPacket() throws IOException {
    if (packets.getHeader() != null && packets.getHeader().isLastPacketInBlock()) {
      packets.close(); // a receiver reads one block's packets: a new one for the next block
      packets = new PacketReceiver(false);
    }
    packets.receiveNextPacket(in);
    return packets;
  }

  void sendStatus(Status status) throws IOException {
    ClientReadStatusProto.newBuilder().setStatus(status).build().writeDelimitedTo(out);
    out.flush();
  }

  /** Whether the server closed the connection: end of stream (or a reset) within {@code waitMs}. */
  boolean closedByServer(int waitMs) throws IOException {
    socket.setSoTimeout(waitMs);
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException open) {
      return false;
    } catch (IOException reset) {
      return true;
    } finally {
      socket.setSoTimeout(TIMEOUT_MS);
    }
  }

  @Override
  public void close() throws IOException {
    packets.close();
    socket.close();
  }
}
