package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;

/**
 * The locks an operation needs on one path, and what it reads with them (docs/references.md [Design] s.6).
 *
 * <p>Lock type: {@code targetMode} on the last component (when it exists) and {@code ancestorMode} on the deepest
 * existing proper ancestor (the parent, when it exists); every other component is read at read-committed. The
 * strongest mode the operation will need is requested up front: locks are never upgraded. Optionally, the
 * ancestors between a given depth and the parent are locked shared as well.
 *
 * <p>Resolve type: the path only; the path and the target directory's immediate children (one page, read in the
 * same round trip as the locks); or the path and all its descendants (the first level read with the locks, deeper
 * levels one round trip per level, see {@link TransactionContext#subtree}). With {@code fileData}, the target
 * file's blocks and replicas (and, with {@link FileRead#ROWS_AND_SMALL_DATA}, its database-resident bytes) are read
 * in the same round trip as its lock.
 */
public record PathLock(FsPath path, LockMode targetMode, LockMode ancestorMode, int sharedAncestorsFromDepth,
    Resolve resolve, String childrenAfter, int childrenLimit, FileRead fileData) {
  /** What is read besides the path's components. */
  public enum Resolve { PATH, PATH_AND_CHILDREN, PATH_AND_ALL_CHILDREN }

  /** What of the target file's data is read with its lock. */
  public enum FileRead { NONE, ROWS, ROWS_AND_SMALL_DATA }

  /** No ancestor above the parent is locked. */
  public static final int NO_SHARED_ANCESTORS = Integer.MAX_VALUE;
  /** Children read per scan of one directory while resolving a subtree. */
  public static final int SUBTREE_SCAN_BATCH = 1000;

  public PathLock {
    if (resolve == Resolve.PATH_AND_CHILDREN && childrenLimit <= 0) {
      throw new IllegalArgumentException("a children page needs a positive limit, got " + childrenLimit);
    }
  }

  public PathLock(FsPath path, LockMode targetMode, LockMode ancestorMode) {
    this(path, targetMode, ancestorMode, NO_SHARED_ANCESTORS, Resolve.PATH, null, 0, FileRead.NONE);
  }

  /**
   * The same lock that also takes shared locks on every existing ancestor from {@code depth} down to (not
   * including) the parent, so that none of them can be moved until this transaction ends. Moves of a directory use
   * it on the destination: a concurrent move cannot then make the destination a descendant of the source.
   */
  public PathLock withSharedAncestorsFrom(int depth) {
    return new PathLock(path, targetMode, ancestorMode, Math.max(1, depth), resolve, childrenAfter, childrenLimit,
        fileData);
  }

  /** Also reads one page of the target directory's children (after {@code after}, at most {@code limit}). */
  public PathLock withChildren(String after, int limit) {
    return new PathLock(path, targetMode, ancestorMode, sharedAncestorsFromDepth, Resolve.PATH_AND_CHILDREN, after,
        limit, fileData);
  }

  /** Also reads the target's whole subtree, locked at the target's mode. */
  public PathLock withSubtree() {
    return new PathLock(path, targetMode, ancestorMode, sharedAncestorsFromDepth, Resolve.PATH_AND_ALL_CHILDREN,
        null, SUBTREE_SCAN_BATCH, fileData);
  }

  /** Also reads the target file's blocks and replicas in the same round trip as its lock. */
  public PathLock withFileData() {
    return new PathLock(path, targetMode, ancestorMode, sharedAncestorsFromDepth, resolve, childrenAfter,
        childrenLimit, FileRead.ROWS);
  }

  /**
   * {@link #withFileData}, and the file's database-resident bytes (design 016) too: for reads that answer with a
   * small file's bytes, which then cost no round trip of their own.
   */
  public PathLock withFileDataAndSmallData() {
    return new PathLock(path, targetMode, ancestorMode, sharedAncestorsFromDepth, resolve, childrenAfter,
        childrenLimit, FileRead.ROWS_AND_SMALL_DATA);
  }

  /** Shared lock on the target: a consistent read. */
  public static PathLock read(FsPath path) {
    return new PathLock(path, LockMode.SHARED, LockMode.NONE);
  }

  /** Exclusive lock on the target: changes its attributes. */
  public static PathLock write(FsPath path) {
    return new PathLock(path, LockMode.EXCLUSIVE, LockMode.NONE);
  }

  /** Exclusive locks on the target and its parent (or deepest existing ancestor): adds or removes the target. */
  public static PathLock writeTargetAndParent(FsPath path) {
    return new PathLock(path, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);
  }
}
