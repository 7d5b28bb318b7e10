package io.canopy.namenode.rpc;

import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaWithBlock;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;

/**
 * NamenodeProtocol's {@code getBlocks}, what HDFS's balancer moves (issue 21, design 024; WORK IN PROGRESS, not
 * tested against the balancer yet): blocks of one datanode, from a random place among its replicas, complete, at least
 * {@code minBlockSize} long, until their bytes reach {@code size}, each with every good location. Not yet: the
 * "hot" blocks HDFS lists last (files changed within {@code hotBlockTimeInterval}).
 */
final class BalancerBlocks {
  private final TransactionRunner runner;
  private final DatanodeRegistry registry;
  private final Random random;

  BalancerBlocks(TransactionRunner runner, DatanodeRegistry registry, Random random) {
    this.runner = runner;
    this.registry = registry;
    this.random = random;
  }

  BlocksWithLocations of(DatanodeInfo datanode, long size, long minBlockSize, StorageType storageType)
      throws IOException {
    if (size <= 0) {
      throw new HadoopIllegalArgumentException("Unexpected not positive size: " + size);
    }
    DatanodeRegistry.Node node = registry.node(datanode.getDatanodeUuid());
    if (node == null) {
      throw new HadoopIllegalArgumentException("Datanode " + datanode + " not found.");
    }
    List<String> storages = new ArrayList<>();
    for (StorageRecord storage : node.storages()) {
      if (storageType == null || DatanodeRegistry.storageType(storage) == storageType) {
        storages.add(storage.storageId());
      }
    }
    long start = random.nextLong();
    return runner.run(new Listing(storages, size, minBlockSize, start));
  }

  /** The listing, in one read-only transaction. */
  private final class Listing implements ClusterRead<BlocksWithLocations> {
    private final List<String> storages;
    private final long size;
    private final long minBlockSize;
    private final long start;

    Listing(List<String> storages, long size, long minBlockSize, long start) {
      this.storages = storages;
      this.size = size;
      this.minBlockSize = minBlockSize;
      this.start = start;
    }

    @Override
    public String name() {
      return "getBlocks";
    }

    @Override
    public BlocksWithLocations execute(TransactionContext context) throws IOException {
      List<ReplicaWithBlock> candidates = new ArrayList<>();
      for (String storage : storages) {
        for (ReplicaWithBlock replica : context.cluster().replicas().onStorageWithBlocks(storage)) {
          if (!replica.replica().corrupt() && replica.blockState() == BlockState.COMPLETE
              && replica.blockNumBytes() >= minBlockSize) {
            candidates.add(replica);
          }
        }
      }
      List<ReplicaWithBlock> chosen = new ArrayList<>();
      long bytes = 0;
      int first = candidates.isEmpty() ? 0 : (int) Math.floorMod(start, (long) candidates.size());
      for (int i = 0; i < candidates.size() && bytes < size; i++) {
        ReplicaWithBlock replica = candidates.get((first + i) % candidates.size());
        chosen.add(replica);
        bytes += replica.blockNumBytes();
      }
      Collection<Long> files = new LinkedHashSet<>();
      chosen.forEach(replica -> files.add(replica.replica().inodeId()));
      Map<Long, List<Replica>> byBlock = new HashMap<>();
      for (Replica replica : context.cluster().replicas().ofFiles(files)) {
        if (!replica.corrupt()) {
          byBlock.computeIfAbsent(replica.blockId(), id -> new ArrayList<>()).add(replica);
        }
      }
      List<BlockWithLocations> blocks = new ArrayList<>();
      for (ReplicaWithBlock replica : chosen) {
        List<String> uuids = new ArrayList<>();
        List<String> storageIds = new ArrayList<>();
        List<StorageType> types = new ArrayList<>();
        for (Replica location : byBlock.getOrDefault(replica.replica().blockId(), List.of())) {
          DatanodeRegistry.Node holder = registry.nodeOfStorage(location.storageId());
          if (holder == null) {
            continue;
          }
          uuids.add(holder.record().uuid());
          storageIds.add(location.storageId());
          StorageType type = StorageType.DEFAULT;
          for (StorageRecord storage : holder.storages()) {
            if (storage.storageId().equals(location.storageId())) {
              type = DatanodeRegistry.storageType(storage);
            }
          }
          types.add(type);
        }
        blocks.add(new BlockWithLocations(new Block(replica.replica().blockId(), replica.blockNumBytes(),
            replica.blockGenerationStamp()), uuids.toArray(new String[0]), storageIds.toArray(new String[0]),
            types.toArray(new StorageType[0])));
      }
      return new BlocksWithLocations(blocks.toArray(new BlockWithLocations[0]));
    }
  }
}
