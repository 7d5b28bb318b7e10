package io.canopy.namenode.smallfiles;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.BlockReader;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.client.impl.BlockReaderRemote;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;

/** Reads a block range with Hadoop's own client-side reader, {@link BlockReaderRemote}, as DFSInputStream does. */
final class HadoopBlockReads {
  private HadoopBlockReads() {
  }

  static byte[] read(InetSocketAddress server, ExtendedBlock block, long offset, int length, boolean verifyChecksum)
      throws IOException {
    Configuration conf = new Configuration(false);
    // A socket with a channel, as DFSClient's socket factory makes: the reader then uses Hadoop's NIO peer.
    Socket socket = NetUtils.getDefaultSocketFactory(conf).createSocket();
    NetUtils.connect(socket, server, WireClient.TIMEOUT_MS);
    Peer peer = DFSUtilClient.peerFromSocket(socket);
    peer.setReadTimeout(WireClient.TIMEOUT_MS);
    try {
      BlockReader reader = BlockReaderRemote.newBlockReader("/small/file", block, new Token<>(), offset, length,
          verifyChecksum, "hadoop-reader", peer, SmallFilesDatanode.at(server).info(), null,
          CachingStrategy.newDefaultStrategy(), 0, conf);
      try {
        byte[] bytes = new byte[length];
        reader.readFully(bytes, 0, length);
        return bytes;
      } finally {
        reader.close();
      }
    } finally {
      peer.close();
    }
  }
}
