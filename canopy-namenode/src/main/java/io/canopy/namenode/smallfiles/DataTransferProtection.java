package io.canopy.namenode.smallfiles;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.datatransfer.sasl.SaslDataTransferServer;
import org.apache.hadoop.hdfs.security.token.block.BlockPoolTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.server.datanode.DNConf;

/**
 * The small-file endpoint's side of HDFS's protected data transfer: when {@code dfs.encrypt.data.transfer} or
 * {@code dfs.data.transfer.protection} is set, a stock client opens every datanode connection with a SASL handshake
 * (the encryption key derived from a block key and a nonce the namenode handed out, or the block token's password),
 * and this endpoint answers it with Hadoop's own {@link SaslDataTransferServer}, as the stock DataNode does, over the
 * block keys this namenode shares with the datanodes. Without either setting connections stay plain.
 */
public final class DataTransferProtection {
  private DataTransferProtection() {
  }

  /** Whether {@code conf} protects data transfer. */
  public static boolean on(Configuration conf) {
    return conf.getBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY,
        DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_DEFAULT)
        || !conf.getTrimmed(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "").isEmpty();
  }

  /**
   * The endpoint's connection streams for {@code conf}: plain, or through the handshake with keys from
   * {@code blockKeys} (the namenode's block token manager, which must exist when protection is on).
   */
  public static SmallBlockReadServer.ConnectionStreams streams(Configuration conf, BlockTokenSecretManager blockKeys,
      String blockPoolId) {
    if (!on(conf)) {
      return SmallBlockReadServer.ConnectionStreams.PLAIN;
    }
    if (blockKeys == null) {
      throw new IllegalStateException("protected data transfer needs block access tokens ("
          + DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY + "=true)");
    }
    BlockPoolTokenSecretManager pools = new BlockPoolTokenSecretManager();
    pools.addBlockPool(blockPoolId, blockKeys);
    SaslDataTransferServer handshake = new SaslDataTransferServer(new DNConf(new Configured(conf)), pools);
    return (peer, port) -> handshake.receive(peer, peer.getOutputStream(), peer.getInputStream(), port, null);
  }
}
