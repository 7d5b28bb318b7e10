package io.canopy.namenode.replication;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which pending transfers are settled: every target now holds a recorded replica, or the block is gone. A replica
 * report usually takes a block that reached its replication off the queue by itself, so the leader learns of
 * arrivals here rather than from the queue. Read only: the replicas and blocks of all the files concerned in one
 * round trip each.
 */
final class SettledTransfersOp implements ClusterRead<Set<Long>> {
  private final List<PendingTransfers.Transfer> transfers;

  SettledTransfersOp(List<PendingTransfers.Transfer> transfers) {
    this.transfers = List.copyOf(transfers);
  }

  @Override
  public String name() {
    return "settledTransfers";
  }

  @Override
  public Set<Long> execute(TransactionContext context) throws IOException {
    Set<Long> inodeIds = new HashSet<>();
    transfers.forEach(t -> inodeIds.add(t.inodeId()));
    Set<Long> existing = new HashSet<>();
    for (Block block : context.cluster().blocks().ofFiles(inodeIds)) {
      existing.add(block.blockId());
    }
    Map<Long, Set<String>> holders = new HashMap<>();
    for (Replica replica : context.cluster().replicas().ofFiles(inodeIds)) {
      if (replica.corrupt()) {
        continue; // a corrupt copy is no copy
      }
      holders.computeIfAbsent(replica.blockId(), b -> new HashSet<>()).add(replica.storageId());
    }
    Set<Long> settled = new HashSet<>();
    for (PendingTransfers.Transfer transfer : transfers) {
      Set<String> storages = holders.getOrDefault(transfer.blockId(), Set.of());
      if (!existing.contains(transfer.blockId())
          || transfer.targets().stream().allMatch(t -> storages.contains(t.storageId()))) {
        settled.add(transfer.blockId());
      }
    }
    return settled;
  }
}
