package io.canopy.namenode.replication;

import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.blocks.SmallBlocks;
import io.canopy.namenode.tx.FileTables;
import java.util.ArrayList;
import java.util.List;

/**
 * HDFS's rules for corrupt replicas (BlockManager.markBlockAsCorrupt): a corrupt replica counts for nothing, and it is
 * deleted from its datanode only when that loses nothing. Reports and reportBadBlocks only mark a replica corrupt and
 * queue its block; the leader decides deletions ({@link #deletable}) on the block's live good replicas, after the
 * holders have reported to it: the last copies of a block are never deleted for being corrupt, the block is copied
 * from a good replica first.
 */
public final class CorruptReplicas {
  private CorruptReplicas() {
  }

  /**
   * Which of a block's corrupt replicas may be deleted now, the block having {@code live} live good replicas: all of
   * them once it has its replication; with at least the minimum replication, the stale copies writes left behind (an
   * older stamp: HDFS's "corrupted during write") and as many others as make good and corrupt replicas together more
   * than the replication; none otherwise.
   */
  public static List<Replica> deletable(int live, List<Replica> corrupt, int replication, int minReplication) {
    for (Replica replica : corrupt) {
      if (!replica.corrupt()) {
        throw new IllegalArgumentException("invariant: only corrupt replicas are deleted for being corrupt, not "
            + replica);
      }
    }
    if (live >= replication) {
      return List.copyOf(corrupt);
    }
    if (live < minReplication) {
      return List.of();
    }
    List<Replica> deleted = new ArrayList<>();
    List<Replica> others = new ArrayList<>();
    for (Replica replica : corrupt) {
      (replica.corruptReason() == CorruptReason.GENSTAMP_MISMATCH ? deleted : others).add(replica);
    }
    int kept = corrupt.size() - deleted.size();
    for (Replica replica : others) {
      if (live + kept <= replication) {
        break;
      }
      deleted.add(replica);
      kept--;
    }
    return deleted;
  }

  /**
   * Whether a good report heals a replica recorded corrupt for {@code reason}: a stale stamp or a wrong length the
   * datanode now reports right was caught up (or recovered) since; a failed checksum is never taken back.
   */
  public static boolean healedByAGoodReport(CorruptReason reason) {
    return reason == CorruptReason.GENSTAMP_MISMATCH || reason == CorruptReason.SIZE_MISMATCH;
  }

  /**
   * Queues a block that has corrupt replicas for the leader: copied when short of good replicas, its corrupt replicas
   * deleted as {@link #deletable} allows (queued as excess when it has its replication, a corrupt replica being one
   * too many).
   */
  public static void queue(FileTables transaction, long inodeId, long blockId, int good, int replication,
      long notBeforeMs) {
    if (SmallBlocks.isSmall(blockId)) {
      return; // no datanode holds a database-resident block: none of its replicas can be corrupt
    }
    ReplicationPriority priority = ReplicationQueue.priority(good, replication);
    transaction.replicationQueue().put(new QueuedBlock(inodeId, blockId,
        priority == null ? ReplicationPriority.EXCESS : priority, notBeforeMs));
  }
}
