package io.canopy.metadata;

/** Cluster-wide id sequences, allocated to namenodes in ranges. First values match HDFS's reserved ranges. */
public enum IdKind {
  /** HDFS reserves inode ids up to 16384; the root is 16385. */
  INODE(16386L),
  /** HDFS's sequential block ids start after 2^30. */
  BLOCK(1L << 30),
  /** HDFS reserves generation stamps up to 1000. */
  GENERATION_STAMP(1001L),
  /** Namenode ids: a restarted namenode joins with a new, larger id (so it never jumps the leader queue). */
  NAMENODE(1L);

  private final long firstValue;

  IdKind(long firstValue) {
    this.firstValue = firstValue;
  }

  public long firstValue() {
    return firstValue;
  }
}
