package io.canopy.namenode.datanode;

/** What a datanode said about one replica on one of its storages. */
public record ReportedReplica(long blockId, long generationStamp, long numBytes, Kind kind) {
  /** The datanode's claim. */
  public enum Kind {
    /** A complete, finalized replica (RECEIVED_BLOCK, or listed as finalized in a full report). */
    FINALIZED,
    /** The datanode deleted it (DELETED_BLOCK). */
    DELETED,
    /** Recorded for this storage but missing from its full report. */
    ABSENT
  }
}
