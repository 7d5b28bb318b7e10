package io.canopy.namenode.blocks;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.canopy.namenode.smallfiles.SmallBlockCache;
import io.canopy.namenode.smallfiles.SmallFilesDatanode;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/** Builds the located blocks clients read and write with, from block and replica rows. */
public final class BlockLocator {
  private final DatanodeRegistry registry;
  private final String blockPoolId;
  /** Where database-resident blocks are read (the namenode's small-file endpoint), null until it listens. */
  private volatile SmallFilesDatanode smallFileEndpoint;

  public BlockLocator(DatanodeRegistry registry, String blockPoolId) {
    this.registry = registry;
    this.blockPoolId = blockPoolId;
  }

  /** Where getBlockLocations leaves a small file's bytes for the endpoint's next read; null until it listens. */
  private volatile SmallBlockCache smallBlockCache;

  /**
   * Locates database-resident blocks on {@code endpoint}, the namenode's endpoint that serves them (design 016), which
   * reads first from {@code cache}.
   */
  public void serveSmallFilesFrom(SmallFilesDatanode endpoint, SmallBlockCache cache) {
    this.smallBlockCache = cache;
    this.smallFileEndpoint = endpoint;
  }

  /** The endpoint's cache of small blocks read ahead, or null when no endpoint serves them. */
  public SmallBlockCache smallBlockCache() {
    return smallBlockCache;
  }

  public ExtendedBlock extended(Block block) {
    return new ExtendedBlock(blockPoolId, block.blockId(), block.numBytes(), block.generationStamp());
  }

  /** A block at {@code offset} located on the given storages, skipping dead or unknown datanodes. */
  public LocatedBlock located(Block block, long offset, Collection<String> storageIds) throws StoreException {
    return located(block, offset, storageIds, false);
  }

  /**
   * As {@link #located(Block, long, Collection)}; {@code corrupt} marks a block located only on corrupt replicas
   * (HDFS hands those out, flagged, when a block has no good replica left: a reader may still get some bytes).
   */
  private LocatedBlock located(Block block, long offset, Collection<String> storageIds, boolean corrupt)
      throws StoreException {
    if (SmallBlocks.isSmall(block.blockId())) {
      SmallFilesDatanode endpoint = smallFileEndpoint;
      return endpoint == null ? new LocatedBlock(extended(block), new DatanodeInfo[0], new String[0],
          new StorageType[0], offset, false, null) : endpoint.located(extended(block), offset);
    }
    List<DatanodeInfo> nodes = new ArrayList<>();
    List<String> storages = new ArrayList<>();
    List<StorageType> types = new ArrayList<>();
    for (String storageId : storageIds) {
      DatanodeRegistry.Node node = registry.nodeOfStorage(storageId);
      if (node == null || !registry.isLive(node.record())) {
        continue;
      }
      nodes.add(DatanodeRegistry.info(node.record()));
      storages.add(storageId);
      types.add(node.storages().stream().filter(s -> s.storageId().equals(storageId)).findFirst()
          .map(DatanodeRegistry::storageType).orElse(StorageType.DEFAULT));
    }
    return new LocatedBlock(extended(block), nodes.toArray(new DatanodeInfo[0]), storages.toArray(new String[0]),
        types.toArray(new StorageType[0]), offset, corrupt, null);
  }

  /**
   * Located blocks of a file covering [offset, offset + length), like HDFS's getBlockLocations. {@code replicas} are
   * all the file's replica rows: a block is located on its good replicas, or, when it has none, on its corrupt ones
   * flagged corrupt.
   */
  public LocatedBlocks locate(Inode file, List<Block> blocks, List<Replica> replicas, List<UcReplica> ucReplicas,
      long offset, long length) throws StoreException {
    Map<Long, List<String>> finalized = new HashMap<>();
    Map<Long, List<String>> corrupt = new HashMap<>();
    replicas.forEach(r -> (r.corrupt() ? corrupt : finalized).computeIfAbsent(r.blockId(), b -> new ArrayList<>())
        .add(r.storageId()));
    Map<Long, List<String>> pipeline = new HashMap<>();
    ucReplicas.forEach(r -> pipeline.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r.storageId()));

    Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    boolean lastComplete = last == null || last.state() == BlockState.COMPLETE;
    long completeLength = 0;
    for (Block block : blocks) {
      if (block != last || lastComplete || !file.underConstruction()) {
        completeLength += block.numBytes();
      }
    }
    long fileLength = file.underConstruction() ? completeLength : file.size();
    List<LocatedBlock> result = new ArrayList<>();
    long blockStart = 0;
    long end = offset + Math.max(length, 1);
    LocatedBlock lastLocated = null;
    for (Block block : blocks) {
      long blockEnd = blockStart + block.numBytes();
      LocatedBlock located = null;
      boolean overlaps = blockStart < end && (blockEnd > offset || block.numBytes() == 0 && blockStart == offset);
      if (overlaps || block == last) {
        List<String> locations = locationsOf(block, finalized, pipeline);
        boolean onlyCorrupt = locations.isEmpty() && corrupt.containsKey(block.blockId());
        located = located(block, blockStart, onlyCorrupt ? corrupt.get(block.blockId()) : locations, onlyCorrupt);
      }
      if (overlaps && (block != last || lastComplete || !file.underConstruction())) {
        result.add(located);
      }
      if (block == last) {
        lastLocated = located;
      }
      blockStart = blockEnd;
    }
    return new LocatedBlocks(fileLength, file.underConstruction(), result, lastLocated, lastComplete, null, null);
  }

  private static List<String> locationsOf(Block block, Map<Long, List<String>> finalized,
      Map<Long, List<String>> pipeline) {
    if (block.state() == BlockState.COMPLETE || block.state() == BlockState.COMMITTED) {
      List<String> done = finalized.getOrDefault(block.blockId(), List.of());
      if (!done.isEmpty() || block.state() == BlockState.COMPLETE) {
        return done;
      }
    }
    List<String> locations = new ArrayList<>(pipeline.getOrDefault(block.blockId(), List.of()));
    for (String storage : finalized.getOrDefault(block.blockId(), List.of())) {
      if (!locations.contains(storage)) {
        locations.add(storage);
      }
    }
    return locations;
  }
}
