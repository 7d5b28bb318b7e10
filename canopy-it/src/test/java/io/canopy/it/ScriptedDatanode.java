package io.canopy.it;

import io.canopy.namenode.NameNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.FinalizedReplica;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * A datanode played by the test over the real DatanodeProtocol, on a namenode's service port: it registers properly
 * and heartbeats when told, reports exactly what the test says (replicas it does not hold included) and obeys
 * nothing, recording the commands it was given. It never sends a full block report unless the test asks: the way to
 * show what a namenode does while a live datanode has not reported.
 */
final class ScriptedDatanode implements AutoCloseable {
  private final DatanodeProtocolClientSideTranslatorPB namenode;
  private final DatanodeRegistration registration;
  private final DatanodeStorage storage;
  private final String blockPoolId;
  private final long remainingBytes;
  private final List<DatanodeCommand> commands = new CopyOnWriteArrayList<>();

  /** A new datanode for {@code nameNode}'s namespace, whose one storage reports {@code remainingBytes} free. */
  ScriptedDatanode(NameNode nameNode, Configuration conf, long remainingBytes) throws IOException {
    this.namenode = new DatanodeProtocolClientSideTranslatorPB(nameNode.serviceAddress(), new Configuration(conf));
    NamespaceInfo namespace = namenode.versionRequest();
    this.blockPoolId = namespace.getBlockPoolID();
    String uuid = UUID.randomUUID().toString();
    // Ports nobody listens on: a client sent here fails over to a real datanode.
    DatanodeID id = new DatanodeID("127.0.0.1", "127.0.0.1", uuid, 1, 2, 3, 4);
    DatanodeRegistration proposed = new DatanodeRegistration(id, namespace, new ExportedBlockKeys(),
        VersionInfo.getVersion());
    proposed.setNamespaceInfo(namespace);
    this.registration = namenode.registerDatanode(proposed);
    this.registration.setNamespaceInfo(namespace);
    this.storage = new DatanodeStorage("DS-scripted-" + uuid);
    this.remainingBytes = remainingBytes;
  }

  String uuid() {
    return registration.getDatanodeUuid();
  }

  String storageId() {
    return storage.getStorageID();
  }

  /** One heartbeat; the commands of the answer are recorded (and not obeyed). */
  void heartbeat() throws IOException {
    StorageReport report = new StorageReport(storage, false, 1L << 40, 0, remainingBytes, 0, 0);
    HeartbeatResponse response = namenode.sendHeartbeat(registration, new StorageReport[] {report}, 0, 0, 0, 0, 0,
        null, false, SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT);
    if (response.getCommands() != null) {
      commands.addAll(List.of(response.getCommands()));
    }
  }

  /** Says that this datanode just received the given replicas (an incremental report). */
  void received(Block... blocks) throws IOException {
    List<ReceivedDeletedBlockInfo> received = new ArrayList<>();
    for (Block block : blocks) {
      received.add(new ReceivedDeletedBlockInfo(block, ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null));
    }
    namenode.blockReceivedAndDeleted(registration, blockPoolId, new StorageReceivedDeletedBlocks[] {
        new StorageReceivedDeletedBlocks(storage, received.toArray(new ReceivedDeletedBlockInfo[0]))});
  }

  /** A full block report of its storage listing {@code blocks} as finalized. */
  void fullReport(Block... blocks) throws IOException {
    List<FinalizedReplica> replicas = new ArrayList<>();
    for (Block block : blocks) {
      replicas.add(new FinalizedReplica(block, null, null));
    }
    namenode.blockReport(registration, blockPoolId, new StorageBlockReport[] {new StorageBlockReport(storage,
        BlockListAsLongs.encode(replicas))}, new BlockReportContext(1, 0, System.nanoTime(), 0));
  }

  /** The ids of the blocks the namenode told this datanode to delete so far. */
  List<Long> deletions() {
    List<Long> ids = new ArrayList<>();
    for (DatanodeCommand command : commands) {
      if (command.getAction() == DatanodeProtocol.DNA_INVALIDATE) {
        for (Block block : ((BlockCommand) command).getBlocks()) {
          ids.add(block.getBlockId());
        }
      }
    }
    return ids;
  }

  /** Whether the namenode asked this datanode to register again (so that it sends a full report). */
  boolean askedToRegister() {
    return commands.stream().anyMatch(c -> c.getAction() == DatanodeProtocol.DNA_REGISTER);
  }

  @Override
  public void close() throws IOException {
    namenode.close();
  }
}
