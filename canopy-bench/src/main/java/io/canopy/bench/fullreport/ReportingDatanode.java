package io.canopy.bench.fullreport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.FinalizedReplica;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * A datanode the benchmark plays over the stock DatanodeProtocol (the same calls on Canopy and on HDFS): one storage,
 * no data, reports exactly what it is told. Its transfer port is one nobody listens on.
 */
final class ReportingDatanode implements AutoCloseable {
  private static final long CAPACITY = 1L << 50;
  private final DatanodeProtocolClientSideTranslatorPB namenode;
  private final DatanodeRegistration registration;
  private final DatanodeStorage storage;
  private final String blockPoolId;
  private long reportId;

  /** Registers a new datanode with the namenode whose DatanodeProtocol listens at {@code address}. */
  ReportingDatanode(InetSocketAddress address, Configuration conf, int transferPort) throws IOException {
    this.namenode = new DatanodeProtocolClientSideTranslatorPB(address, new Configuration(conf));
    NamespaceInfo namespace = namenode.versionRequest();
    this.blockPoolId = namespace.getBlockPoolID();
    String uuid = UUID.randomUUID().toString();
    DatanodeID id = new DatanodeID("127.0.0.1", "127.0.0.1", uuid, transferPort, transferPort + 1,
        transferPort + 2, transferPort + 3);
    DatanodeRegistration proposed = new DatanodeRegistration(id, namespace, new ExportedBlockKeys(),
        VersionInfo.getVersion());
    proposed.setNamespaceInfo(namespace);
    this.registration = namenode.registerDatanode(proposed);
    this.registration.setNamespaceInfo(namespace);
    this.storage = new DatanodeStorage("DS-bench-" + uuid);
  }

  String uuid() {
    return registration.getDatanodeUuid();
  }

  /** One heartbeat (its commands are not obeyed: the benchmark's datanode holds no data to delete or copy). */
  void heartbeat() throws IOException {
    StorageReport report = new StorageReport(storage, false, CAPACITY, 0, CAPACITY, 0, 0);
    namenode.sendHeartbeat(registration, new StorageReport[] {report}, 0, 0, 0, 0, 0, null, false,
        SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT);
  }

  /**
   * A heartbeat asking for a full-report lease, as a stock DataNode's does once its full report is due: the lease id
   * granted, 0 when refused (the datanode asks again at a later heartbeat).
   */
  long requestLease() throws IOException {
    StorageReport report = new StorageReport(storage, false, CAPACITY, 0, CAPACITY, 0, 0);
    return namenode.sendHeartbeat(registration, new StorageReport[] {report}, 0, 0, 0, 0, 0, null, true,
        SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT).getFullBlockReportLeaseId();
  }

  /**
   * Sends each datanode's first heartbeat (its storage and capacity) and waits until the namenode lists them all
   * live, so that the first addBlock finds them: a block placed before that fails ("could only be written to 0 of the
   * 1 minReplication nodes").
   */
  static void announce(List<ReportingDatanode> datanodes, ClientProtocol namenode, long boundMs)
      throws IOException, InterruptedException {
    for (ReportingDatanode datanode : datanodes) {
      datanode.heartbeat();
    }
    long deadline = System.nanoTime() + boundMs * 1_000_000L;
    while (namenode.getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE).length < datanodes.size()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the namenode did not list the benchmark's " + datanodes.size()
            + " datanode(s) live within " + boundMs + " ms");
      }
      Thread.sleep(100);
      for (ReportingDatanode datanode : datanodes) {
        datanode.heartbeat();
      }
    }
  }

  /** An incremental report: these replicas were just received. */
  void received(Collection<Block> blocks) throws IOException {
    List<ReceivedDeletedBlockInfo> received = new ArrayList<>();
    for (Block block : blocks) {
      received.add(new ReceivedDeletedBlockInfo(block, ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null));
    }
    namenode.blockReceivedAndDeleted(registration, blockPoolId, new StorageReceivedDeletedBlocks[] {
        new StorageReceivedDeletedBlocks(storage, received.toArray(new ReceivedDeletedBlockInfo[0]))});
  }

  /** The replica list of a full report listing {@code blocks} as finalized (encoded before the report is timed). */
  static BlockListAsLongs encode(Collection<Block> blocks) {
    List<FinalizedReplica> replicas = new ArrayList<>(blocks.size());
    for (Block block : blocks) {
      replicas.add(new FinalizedReplica(block, null, null));
    }
    return BlockListAsLongs.encode(replicas);
  }

  /** A full block report of its one storage, in one call, as a datanode with one storage sends it. */
  void fullReport(BlockListAsLongs replicas) throws IOException {
    fullReport(replicas, 0L);
  }

  /** {@link #fullReport(BlockListAsLongs)} under the lease {@code leaseId} ({@link #requestLease}). */
  void fullReport(BlockListAsLongs replicas, long leaseId) throws IOException {
    namenode.blockReport(registration, blockPoolId, new StorageBlockReport[] {new StorageBlockReport(storage,
        replicas)}, new BlockReportContext(1, 0, ++reportId, leaseId));
  }

  @Override
  public void close() throws IOException {
    namenode.close();
  }
}
