package io.canopy.namenode.tx;

import java.io.IOException;

/**
 * An operation met a directory held by a subtree operation (design 017) on its path: the directory's inode carries
 * the flag of the namenode running it. The transaction runner waits for the flag to go, or ignores it once that
 * namenode is dead, and re-runs the operation; it reaches the client only as HDFS's RetriableException when the wait
 * ran out.
 */
public final class SubtreeLockedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final transient String lockedPath;
  private final long rootId;
  private final long owner;

  public SubtreeLockedException(String lockedPath, long rootId, long owner) {
    super(lockedPath + " is held by a subtree operation of namenode " + owner);
    this.lockedPath = lockedPath;
    this.rootId = rootId;
    this.owner = owner;
  }

  /** The held directory's path as the operation resolved it. */
  public String lockedPath() {
    return lockedPath;
  }

  /** The held directory's inode id. */
  public long rootId() {
    return rootId;
  }

  /** The id of the namenode running the subtree operation. */
  public long owner() {
    return owner;
  }
}
