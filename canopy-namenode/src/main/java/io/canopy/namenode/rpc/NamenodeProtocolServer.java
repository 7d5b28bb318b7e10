package io.canopy.namenode.rpc;

import io.canopy.namenode.blocks.BlockTokens;
import io.canopy.namenode.datanode.DatanodeProtocolServer;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import java.io.IOException;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
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

  private final BalancerBlocks balancerBlocks;

  public NamenodeProtocolServer(DatanodeProtocolServer datanodes, NamespaceServices services,
      BlockTokens blockTokens, io.canopy.namenode.tx.TransactionRunner runner,
      io.canopy.namenode.blocks.DatanodeRegistry registry, java.util.Random random) {
    this.balancerBlocks = new BalancerBlocks(runner, registry, random);
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

  /** Blocks of a datanode for the balancer to move (WORK IN PROGRESS: {@link BalancerBlocks}); superuser only. */
  public BlocksWithLocations getBlocks(DatanodeInfo datanode, long size, long minBlockSize, long hotBlockTimeInterval,
      StorageType storageType) throws IOException {
    PermissionChecker.of(services.permissions(), CallerInfo.caller()).checkSuperuser("getBlocks");
    services.safeMode().check("Cannot execute getBlocks");
    return balancerBlocks.of(datanode, size, minBlockSize, storageType);
  }

  /** Canopy has no upgrades to finalize (its schema migrations run before a namenode serves). */
  public boolean isUpgradeFinalized() {
    return true;
  }

  /** No rolling upgrade is ever in progress. */
  public boolean isRollingUpgrade() {
    return false;
  }
}
