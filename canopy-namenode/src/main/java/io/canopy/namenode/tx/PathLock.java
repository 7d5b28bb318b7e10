package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;

/**
 * The locks an operation needs on one path: {@code targetMode} on the last component (when it exists) and
 * {@code ancestorMode} on the deepest existing proper ancestor (the parent, when it exists). Every other component
 * is read at read-committed. The strongest mode the operation will need is requested up front: locks are never
 * upgraded.
 */
public record PathLock(FsPath path, LockMode targetMode, LockMode ancestorMode) {
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
