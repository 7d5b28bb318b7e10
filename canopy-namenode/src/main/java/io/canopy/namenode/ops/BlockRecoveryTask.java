package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Block;
import java.util.List;

/**
 * A block recovery to hand to a datanode: the file's last block as the namenode knows it (its length and the
 * generation stamp before recovery, which the datanodes' replicas must have at least), the recovery id it is to be
 * recovered to ({@link Block#recoveryId()}), and the storages that may hold replicas of it (its pipeline first).
 */
public record BlockRecoveryTask(long inodeId, String fileName, Block block, List<String> storageIds) {
  public BlockRecoveryTask {
    storageIds = List.copyOf(storageIds);
  }

  public long recoveryId() {
    return block.recoveryId();
  }
}
