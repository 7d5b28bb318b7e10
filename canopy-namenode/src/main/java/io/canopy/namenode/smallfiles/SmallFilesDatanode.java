package io.canopy.namenode.smallfiles;

import java.net.InetSocketAddress;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * The pseudo-datanode a database-resident block is located on: its transfer address is a namenode's
 * {@link SmallBlockReadServer}. A stock {@code DFSClient} connects to {@link DatanodeInfo#getXferAddr()} (ip:port, or
 * host name:port with {@code dfs.client.use.datanode.hostname}) and never to the IPC or info ports, which are 0.
 */
public final class SmallFilesDatanode {
  /** Start of the pseudo-datanode's uuid (and storage id): tells it from real datanodes in logs and reports. */
  public static final String UUID_PREFIX = "canopy-smallfiles-";

  private final DatanodeInfoWithStorage info;

  private SmallFilesDatanode(DatanodeInfoWithStorage info) {
    this.info = info;
  }

  /**
   * The pseudo-datanode of the endpoint a client reaches at {@code endpoint}: a resolved, specific address (the
   * address the endpoint is bound to, or the namenode's advertised host) and the port it bound.
   */
  public static SmallFilesDatanode at(InetSocketAddress endpoint) {
    if (endpoint.isUnresolved()) {
      throw new IllegalArgumentException("small-file endpoint address " + endpoint + " is not resolved: clients "
          + "connect to an ip address");
    }
    if (endpoint.getAddress().isAnyLocalAddress()) {
      throw new IllegalArgumentException("small-file endpoint address " + endpoint + " is the wildcard address, "
          + "which a client cannot connect to: advertise the namenode's host instead");
    }
    if (endpoint.getPort() <= 0) {
      throw new IllegalArgumentException("small-file endpoint port " + endpoint.getPort() + ": advertise the port "
          + "the endpoint bound, not 0");
    }
    String ip = endpoint.getAddress().getHostAddress();
    String name = UUID_PREFIX + endpoint.getHostString() + ":" + endpoint.getPort();
    DatanodeInfo node = new DatanodeInfoBuilder()
        .setIpAddr(ip)
        .setHostName(endpoint.getHostString())
        .setDatanodeUuid(name)
        .setXferPort(endpoint.getPort())
        .setInfoPort(0)
        .setInfoSecurePort(0)
        .setIpcPort(0)
        .build();
    return new SmallFilesDatanode(new DatanodeInfoWithStorage(node, "DS-" + name, StorageType.DISK));
  }

  /** Whether {@code node} is a namenode's small-file endpoint rather than a datanode. */
  public static boolean isSmallFilesDatanode(DatanodeInfo node) {
    return node.getDatanodeUuid() != null && node.getDatanodeUuid().startsWith(UUID_PREFIX);
  }

  public DatanodeInfoWithStorage info() {
    return info;
  }

  public String storageId() {
    return info.getStorageID();
  }

  /** A database-resident block (negative id) that starts at {@code offsetInFile}, located on this endpoint. */
  public LocatedBlock located(ExtendedBlock block, long offsetInFile) {
    if (block.getBlockId() >= 0) {
      throw new IllegalArgumentException("block " + block + " has a datanode block id: only database-resident "
          + "blocks (negative ids) are located on the small-file endpoint");
    }
    if (offsetInFile < 0) {
      throw new IllegalArgumentException("offset in file " + offsetInFile + " of block " + block + " is negative");
    }
    return new LocatedBlock(block, new DatanodeInfo[] {info}, new String[] {storageId()},
        new StorageType[] {StorageType.DISK}, offsetInFile, false, null);
  }
}
