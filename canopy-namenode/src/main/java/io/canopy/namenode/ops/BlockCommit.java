package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.tx.FileData;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.tx.FileTables;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/** Commits a writer's view of a block (final length, stamp) and completes it once enough replicas confirmed it. */
final class BlockCommit {
  private BlockCommit() {
  }

  /** Finalized replicas per block id of a file. */
  static Map<Long, Integer> replicaCounts(FileData file) {
    Map<Long, Integer> counts = new HashMap<>();
    for (Replica replica : file.replicas()) {
      counts.merge(replica.blockId(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Applies the client's {@code reported} block to the file's last block and returns the new row (COMPLETE when at
   * least {@code minReplication} replicas confirmed it, else COMMITTED). Throws when the client names another block.
   */
  static Block commitLast(FileTables transaction, String path, List<Block> blocks, ExtendedBlock reported,
      Map<Long, Integer> replicaCounts, int minReplication) throws IOException {
    Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    if (last == null || last.blockId() != reported.getBlockId()) {
      throw new IOException("Block " + reported + " is not the last block of " + path + " (last is "
          + (last == null ? "none" : last.blockId()) + ")");
    }
    if (last.state() == BlockState.COMPLETE || last.state() == BlockState.COMMITTED) {
      return last; // already committed: a repeated call changes nothing (as HDFS's commitBlock)
    }
    if (reported.getGenerationStamp() != last.generationStamp()) {
      throw new IOException("Commit block with mismatching GS. NN has " + last.generationStamp()
          + ", client submits " + reported.getGenerationStamp() + " for block " + reported + " of " + path);
    }
    BlockState state = replicaCounts.getOrDefault(last.blockId(), 0) >= minReplication ? BlockState.COMPLETE
        : BlockState.COMMITTED;
    Block committed = last.with(reported.getNumBytes(), reported.getGenerationStamp(), state);
    transaction.blocks().update(committed);
    blocks.set(blocks.size() - 1, committed);
    return committed;
  }
}
