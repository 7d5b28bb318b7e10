package io.canopy.namenode.replication;

import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicationPriority;

/**
 * HDFS's rules for corrupt replicas (BlockManager.markBlockAsCorrupt): a corrupt replica counts for nothing, and it is
 * deleted from its datanode only when that loses nothing: the block has its replication in good replicas, or (with at
 * least the minimum replication good) more good and corrupt replicas than it needs, or it is a stale copy left behind
 * by a write (an older generation stamp). Otherwise it stays recorded as corrupt (the last copies of a block are never
 * deleted for being corrupt), the block is copied from a good replica, and the corrupt ones go once it has its
 * replication again.
 */
public final class CorruptReplicas {
  private CorruptReplicas() {
  }

  /**
   * Whether a replica just found corrupt for {@code reason} is deleted at once, the block having {@code good} good
   * replicas and {@code corrupt} corrupt ones counting this one.
   */
  public static boolean deleteAtOnce(int good, int corrupt, int replication, int minReplication,
      CorruptReason reason) {
    if (reason == CorruptReason.NONE || corrupt < 1) {
      throw new IllegalArgumentException("invariant: only a corrupt replica is deleted for being corrupt");
    }
    boolean enoughGood = good >= replication;
    boolean moreThanNeeded = good >= minReplication && good + corrupt > replication;
    boolean leftByAWrite = good >= minReplication && reason == CorruptReason.GENSTAMP_MISMATCH;
    return enoughGood || moreThanNeeded || leftByAWrite;
  }

  /** Whether the block's corrupt replicas may all go: it has its replication in good replicas. */
  public static boolean replicatedAgain(int good, int replication) {
    return good >= replication;
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
   * deleted once it has its replication (queued as excess then, a corrupt replica being one too many).
   */
  public static void queue(Transaction transaction, long inodeId, long blockId, int good, int replication,
      long notBeforeMs) {
    ReplicationPriority priority = ReplicationQueue.priority(good, replication);
    transaction.replicationQueue().put(new QueuedBlock(inodeId, blockId,
        priority == null ? ReplicationPriority.EXCESS : priority, notBeforeMs));
  }
}
