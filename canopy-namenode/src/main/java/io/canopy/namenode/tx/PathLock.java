package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;

/**
 * The locks an operation needs on one path: {@code targetMode} on the last component (when it exists) and
 * {@code ancestorMode} on the deepest existing proper ancestor (the parent, when it exists). Every other component
 * is read at read-committed. The strongest mode the operation will need is requested up front: locks are never
 * upgraded. Optionally, the ancestors between a given depth and the parent are locked shared as well.
 */
public record PathLock(FsPath path, LockMode targetMode, LockMode ancestorMode, int sharedAncestorsFromDepth) {
  /** No ancestor above the parent is locked. */
  public static final int NO_SHARED_ANCESTORS = Integer.MAX_VALUE;

  public PathLock(FsPath path, LockMode targetMode, LockMode ancestorMode) {
    this(path, targetMode, ancestorMode, NO_SHARED_ANCESTORS);
  }

  /**
   * The same lock that also takes shared locks on every existing ancestor from {@code depth} down to (not
   * including) the parent, so that none of them can be moved until this transaction ends. Moves of a directory use
   * it on the destination: a concurrent move cannot then make the destination a descendant of the source.
   */
  public PathLock withSharedAncestorsFrom(int depth) {
    return new PathLock(path, targetMode, ancestorMode, Math.max(1, depth));
  }

  /** Shared lock on the target: a consistent read. */
  public static PathLock read(FsPath path) {
    return new PathLock(path, LockMode.SHARED, LockMode.READ_COMMITTED);
  }

  /** Exclusive lock on the target: changes its attributes. */
  public static PathLock write(FsPath path) {
    return new PathLock(path, LockMode.EXCLUSIVE, LockMode.READ_COMMITTED);
  }

  /** Exclusive locks on the target and its parent (or deepest existing ancestor): adds or removes the target. */
  public static PathLock writeTargetAndParent(FsPath path) {
    return new PathLock(path, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);
  }
}
