package io.canopy.metadata.entity;

/** State of a replica of a block under construction. Codes are stored; never renumber. */
public enum UcReplicaState {
  /** Chosen as a pipeline target; nothing reported yet. */
  EXPECTED(0),
  /** The datanode reported it is receiving the block. */
  RECEIVING(1),
  /** The datanode finalized its copy. */
  FINALIZED(2);

  private final int code;

  UcReplicaState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static UcReplicaState fromCode(int code) {
    for (UcReplicaState state : values()) {
      if (state.code == code) {
        return state;
      }
    }
    throw new IllegalArgumentException("unknown under-construction replica state code " + code);
  }
}
