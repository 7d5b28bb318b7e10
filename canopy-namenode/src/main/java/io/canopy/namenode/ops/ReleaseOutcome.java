package io.canopy.namenode.ops;

/**
 * What releasing a file's lease did (HDFS's internalReleaseLease answer, with the cases it folds together told
 * apart). {@code detail} says why, for logs; {@code task} is set for {@link Kind#RECOVERING}.
 */
public record ReleaseOutcome(Kind kind, String detail, BlockRecoveryTask task) {
  public enum Kind {
    /** The file is closed (it was already, or its blocks allowed closing it at once). */
    CLOSED,
    /** Block recovery of the last block started: {@link #task()} is what the datanodes must do. */
    RECOVERING,
    /** A recovery of the last block is already in progress; nothing changed. */
    IN_PROGRESS,
    /** The file cannot be closed or recovered yet: a committed block waits for datanodes to confirm replicas. */
    WAITING,
    /** The file is gone, or is not open under the expected holder (a stale lease path, now removed). */
    NOT_OPEN,
    /** The holder renewed its lease since the leader found it expired: the file stays its own. */
    RENEWED
  }

  static ReleaseOutcome of(Kind kind, String detail) {
    return new ReleaseOutcome(kind, detail, null);
  }

  static ReleaseOutcome recovering(String detail, BlockRecoveryTask task) {
    return new ReleaseOutcome(Kind.RECOVERING, detail, task);
  }

  public boolean closed() {
    return kind == Kind.CLOSED;
  }
}
