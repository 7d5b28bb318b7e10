package io.canopy.namenode.rpc;

import io.canopy.namenode.datanode.DatanodeProtocolServer;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;

/**
 * The part of NamenodeProtocol Canopy serves: {@code versionRequest}, which tools such as NNThroughputBenchmark
 * call before anything else. Checkpointing, edit logs and block-key export do not exist in Canopy.
 */
public final class NamenodeProtocolServer {
  private final DatanodeProtocolServer datanodes;

  public NamenodeProtocolServer(DatanodeProtocolServer datanodes) {
    this.datanodes = datanodes;
  }

  public NamespaceInfo versionRequest() {
    return datanodes.versionRequest();
  }
}
