package io.canopy.metadata.entity;

/** Life cycle of a block, as in HDFS. Codes are stored; never renumber. */
public enum BlockState {
  /** Being written; its length is not final. */
  UNDER_CONSTRUCTION(0),
  /** The client declared its final length and stamp; fewer than the minimum replicas confirmed it yet. */
  COMMITTED(1),
  /** Final and confirmed by at least the minimum number of datanodes. */
  COMPLETE(2),
  /** A recovery of its replicas is in progress. */
  UNDER_RECOVERY(3);

  private final int code;

  BlockState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static BlockState fromCode(int code) {
    for (BlockState state : values()) {
      if (state.code == code) {
        return state;
      }
    }
    throw new IllegalArgumentException("unknown block state code " + code);
  }
}
