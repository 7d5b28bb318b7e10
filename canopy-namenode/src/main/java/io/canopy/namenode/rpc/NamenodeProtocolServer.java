package io.canopy.namenode.rpc;

import io.canopy.namenode.blocks.BlockTokens;
import io.canopy.namenode.datanode.DatanodeProtocolServer;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import java.io.IOException;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;

/**
 * The part of NamenodeProtocol Canopy serves: {@code versionRequest}, which tools such as NNThroughputBenchmark
 * call before anything else, and {@code getBlockKeys} (the block keys, to the superuser, as HDFS's balancer asks for
 * them). Checkpointing and edit logs do not exist in Canopy.
 */
public final class NamenodeProtocolServer {
  private final DatanodeProtocolServer datanodes;
  private final NamespaceServices services;
  private final BlockTokens blockTokens;

  public NamenodeProtocolServer(DatanodeProtocolServer datanodes, NamespaceServices services,
      BlockTokens blockTokens) {
    this.datanodes = datanodes;
    this.services = services;
    this.blockTokens = blockTokens;
  }

  /** The block keys ({@code DUMMY_KEYS} when tokens are off); refused to any caller but the superuser, as in HDFS. */
  public ExportedBlockKeys getBlockKeys() throws IOException {
    PermissionChecker.of(services.permissions(), CallerInfo.caller()).checkSuperuser("getBlockKeys");
    return blockTokens.exported();
  }

  public NamespaceInfo versionRequest() {
    return datanodes.versionRequest();
  }
}
