package io.canopy.metadata.entity;

/**
 * Why a replica is known to be corrupt (HDFS's CorruptReplicasMap reasons); {@link #NONE} for a good replica. Codes
 * are stored; never renumber.
 */
public enum CorruptReason {
  NONE(0),
  /** The replica's generation stamp is older than the block's (it missed an append or a pipeline recovery). */
  GENSTAMP_MISMATCH(1),
  /** The replica's length is not the block's final length. */
  SIZE_MISMATCH(2),
  /** A checksum check failed: a client's read, or a datanode's block scanner, reported it (reportBadBlocks). */
  CORRUPTION_REPORTED(3);

  private final int code;

  CorruptReason(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static CorruptReason fromCode(int code) {
    for (CorruptReason reason : values()) {
      if (reason.code == code) {
        return reason;
      }
    }
    throw new IllegalArgumentException("unknown corrupt replica reason code " + code);
  }
}
