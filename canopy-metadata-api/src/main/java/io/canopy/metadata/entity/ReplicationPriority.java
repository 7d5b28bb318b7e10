package io.canopy.metadata.entity;

/**
 * Why a block sits in the replication queue, most urgent first (the order the leader works through the queue in).
 * Codes are stored; never renumber.
 */
public enum ReplicationPriority {
  /** One live replica left: one more failure loses the block. */
  HIGHEST(0),
  /** Fewer than a third of the wanted replicas are live. */
  VERY_UNDER_REPLICATED(1),
  /** Fewer live replicas than the file's replication. */
  UNDER_REPLICATED(2),
  /** More live replicas than the file's replication: some are to be deleted. */
  EXCESS(3),
  /** No live replica at all: nothing to copy from until a datanode holding one comes back. */
  MISSING(4),
  /**
   * As many live replicas as the file's replication, but all in one zone (or rack) while the cluster has more: one
   * copy to another zone is made, then the excess one goes from the crowded zone (HDFS's badly distributed blocks).
   */
  MISPLACED(5);

  private final int code;

  ReplicationPriority(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static ReplicationPriority fromCode(int code) {
    for (ReplicationPriority priority : values()) {
      if (priority.code == code) {
        return priority;
      }
    }
    throw new IllegalArgumentException("unknown replication priority code " + code);
  }
}
