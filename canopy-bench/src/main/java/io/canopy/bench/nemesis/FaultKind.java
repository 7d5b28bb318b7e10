package io.canopy.bench.nemesis;

/** The faults the nemesis injects into a {@code canopy up} cluster, each healed before the next. */
public enum FaultKind {
  /** SIGKILL of one namenode (a crash), started again after a pause. */
  NAMENODE_KILL,
  /** SIGSTOP of one namenode (a long pause: it misses its election rounds and may be evicted), then SIGCONT. */
  NAMENODE_PAUSE,
  /** SIGKILL of the datanodes' process (every datanode at once), started again after a pause. */
  DATANODES_KILL,
  /** SIGSTOP of the PostgreSQL server: every transaction waits or times out, then SIGCONT. */
  DATABASE_PAUSE,
  /** SIGKILL of the PostgreSQL server, started again on the same data: crash recovery. */
  DATABASE_RESTART,
  /**
   * Transient metadata-store faults in every namenode (their fault control, design 023): each statement and each
   * commit fails with a probability, a commit before it reaches the database or after it took effect with its reply
   * lost, as deadlocks and a flaky network do.
   */
  DAL_FAULTS,
  /** One namenode's wall clock moved forwards or backwards by seconds to a minute and a half, then back. */
  CLOCK_OFFSET
}
