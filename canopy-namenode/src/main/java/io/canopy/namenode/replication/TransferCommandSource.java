package io.canopy.namenode.replication;

import io.canopy.metadata.StoreException;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.leader.DatanodeCommandSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the leader's scheduled block copies to their source datanodes as one {@code DNA_TRANSFER} command in the
 * heartbeat answer, so that a datanode runs at most {@code dfs.namenode.replication.max-streams} copies at once.
 * Targets are resolved to their current addresses now; a target that is no longer live is dropped.
 */
public final class TransferCommandSource implements DatanodeCommandSource {
  private static final Logger LOG = LoggerFactory.getLogger(TransferCommandSource.class);

  private final ReplicationServices services;
  private final String blockPoolId;

  public TransferCommandSource(ReplicationServices services, String blockPoolId) {
    this.services = services;
    this.blockPoolId = blockPoolId;
  }

  @Override
  public void commandsFor(String datanodeUuid, long term, List<DatanodeCommand> out) throws StoreException {
    PendingTransfers pending = services.pending();
    if (pending.term() != term || pending.size() == 0) {
      return; // scheduled in another term (or nothing scheduled): the replication duty starts over
    }
    List<PendingTransfers.Transfer> transfers = pending.takeForHeartbeat(datanodeUuid,
        services.settings().maxStreams());
    List<Block> blocks = new ArrayList<>();
    List<DatanodeInfo[]> targets = new ArrayList<>();
    List<StorageType[]> types = new ArrayList<>();
    List<String[]> storageIds = new ArrayList<>();
    for (PendingTransfers.Transfer transfer : transfers) {
      List<DatanodeInfo> nodes = new ArrayList<>();
      List<StorageType> nodeTypes = new ArrayList<>();
      List<String> nodeStorages = new ArrayList<>();
      for (PendingTransfers.Target target : transfer.targets()) {
        DatanodeRegistry.Node node = services.registry().node(target.datanodeUuid());
        if (node != null && services.registry().isLive(node.record())) {
          nodes.add(DatanodeRegistry.info(node.record()));
          nodeTypes.add(node.storages().stream().filter(s -> s.storageId().equals(target.storageId())).findFirst()
              .map(DatanodeRegistry::storageType).orElse(StorageType.DEFAULT));
          nodeStorages.add(target.storageId());
        }
      }
      if (nodes.isEmpty()) {
        pending.forget(transfer.blockId());
        LOG.info("Copy of block {} dropped: none of its targets {} is live any more", transfer.blockId(),
            transfer.targets());
        continue;
      }
      blocks.add(new Block(transfer.blockId(), transfer.numBytes(), transfer.generationStamp()));
      targets.add(nodes.toArray(new DatanodeInfo[0]));
      types.add(nodeTypes.toArray(new StorageType[0]));
      storageIds.add(nodeStorages.toArray(new String[0]));
      LOG.info("Asking datanode {} to copy block {} ({} bytes) to {}", datanodeUuid, transfer.blockId(),
          transfer.numBytes(), nodes);
    }
    if (!blocks.isEmpty()) {
      out.add(new BlockCommand(DatanodeProtocol.DNA_TRANSFER, blockPoolId, blocks.toArray(new Block[0]),
          targets.toArray(new DatanodeInfo[0][]), types.toArray(new StorageType[0][]),
          storageIds.toArray(new String[0][])));
    }
  }
}
