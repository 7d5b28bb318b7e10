package io.canopy.namenode.replication;

import java.util.List;

/**
 * What the leader did about one queued block.
 *
 * @param transfer the copy scheduled ({@link Kind#TRANSFER_SCHEDULED}), else null
 * @param datanodes the datanodes whose replica was removed ({@link Kind#EXCESS_REMOVED}, {@link Kind#CORRUPT_REMOVED}),
 *     or those holding a recorded replica while none is live ({@link Kind#MISSING})
 */
public record BlockOutcome(long inodeId, long blockId, Kind kind, PendingTransfers.Transfer transfer,
    List<String> datanodes) {
  /** The possible outcomes. */
  public enum Kind {
    /** It has exactly its replication in live replicas: off the queue. */
    DONE,
    /** Its file or the block is gone, or the block is not complete (its close queues it again): off the queue. */
    GONE,
    /** Excess live replicas removed and their deletion queued: off the queue. */
    EXCESS_REMOVED,
    /** It has its replication in good replicas again: its corrupt replicas removed and their deletion queued. */
    CORRUPT_REMOVED,
    /**
     * Replicas to delete, but a datanode holding one has not sent this leader a full report yet (a leader change):
     * kept queued until it has.
     */
    POSTPONED,
    /** A copy to new datanodes was scheduled (short of replicas, or all of them in one zone or rack). */
    TRANSFER_SCHEDULED,
    /** A copy is in flight already, or the only datanodes to copy to are deleting an old replica of the block. */
    WAITING,
    /** Queued too recently (a just-closed file whose pipeline may still report). */
    NOT_DUE,
    /** No live replica: nothing to copy from. */
    MISSING,
    /** Every live holder is busy with as many transfers as it may run. */
    SOURCES_BUSY,
    /** No live datanode without a replica has room for one. */
    NO_TARGET,
    /** The run scheduled as many transfers as it may. */
    OUT_OF_BUDGET,
    /** Not looked at: its file's blocks could not be helped on a recent run and no datanode came or went since. */
    IDLE
  }

  public BlockOutcome {
    datanodes = List.copyOf(datanodes);
  }

  static BlockOutcome of(long inodeId, long blockId, Kind kind) {
    return new BlockOutcome(inodeId, blockId, kind, null, List.of());
  }
}
