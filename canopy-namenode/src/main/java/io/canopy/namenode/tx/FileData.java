package io.canopy.namenode.tx;

import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A file's block-level rows, read together. Its replica rows come split: {@code replicas} are the good ones, the only
 * ones that count (live, copy sources, read locations), {@code corruptReplicas} those known to be corrupt; code that
 * removes or moves a block's replicas takes {@link #allReplicas()}. When read with them ({@code smallDataRead}, see
 * {@link PathLock#withFileDataAndSmallData}), {@code smallData} holds the file's database-resident bytes as they were
 * when read: for reads; an operation that writes them reads them through {@link FileTables}.
 */
public record FileData(List<Block> blocks, List<Replica> replicas, List<Replica> corruptReplicas,
    List<UcReplica> ucReplicas, boolean smallDataRead, Optional<byte[]> smallData) {
  static FileData of(ReadBatch.FileRows rows) {
    List<Block> blocks = rows.blocks();
    List<Replica> replicaRows = rows.replicas();
    List<UcReplica> ucReplicas = rows.ucReplicas();
    List<Replica> good = new ArrayList<>(replicaRows.size());
    List<Replica> corrupt = new ArrayList<>(0);
    for (Replica replica : replicaRows) {
      (replica.corrupt() ? corrupt : good).add(replica);
    }
    return new FileData(blocks, List.copyOf(good), List.copyOf(corrupt), ucReplicas, rows.smallDataRead(),
        rows.smallData());
  }

  /** The rows of the blocks among {@code blockIds}, without the database-resident bytes. */
  public FileData ofBlocks(Set<Long> blockIds) {
    return new FileData(blocks.stream().filter(b -> blockIds.contains(b.blockId())).toList(),
        replicas.stream().filter(r -> blockIds.contains(r.blockId())).toList(),
        corruptReplicas.stream().filter(r -> blockIds.contains(r.blockId())).toList(),
        ucReplicas.stream().filter(r -> blockIds.contains(r.blockId())).toList(), false, Optional.empty());
  }

  /** Every replica row of the file, good and corrupt. */
  public List<Replica> allReplicas() {
    if (corruptReplicas.isEmpty()) {
      return replicas;
    }
    List<Replica> all = new ArrayList<>(replicas);
    all.addAll(corruptReplicas);
    return all;
  }
}
