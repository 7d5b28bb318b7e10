package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything an operation locks and reads before its body runs: paths, or one inode named by id (writers and
 * datanode reports), plus rows outside the inode hierarchy it wants read in the same round trip (a lease). The
 * transaction framework takes the locks in the global order: paths in path order, then the inode named by id.
 */
public final class LockRequest {
  private final List<PathLock> paths = new ArrayList<>();
  private long inodeId = -1;
  private LockMode inodeMode = LockMode.READ_COMMITTED;
  private boolean inodeFileData;
  private String leaseHolder;
  private boolean xattrs;

  public static LockRequest none() {
    return new LockRequest();
  }

  public static LockRequest of(PathLock... locks) {
    LockRequest request = new LockRequest();
    request.paths.addAll(List.of(locks));
    return request;
  }

  /** Locks one inode found by id (no path), e.g. the file a reported block belongs to. */
  public static LockRequest inode(long inodeId, LockMode mode) {
    LockRequest request = new LockRequest();
    request.inodeId = inodeId;
    request.inodeMode = mode;
    return request;
  }

  /** With {@link #inode}: also reads the file's blocks and replicas in the same round trip as its lock. */
  public LockRequest withFileData() {
    if (!hasInode()) {
      throw new IllegalStateException("withFileData on a request without an inode; use PathLock.withFileData");
    }
    inodeFileData = true;
    return this;
  }

  /** Also reads {@code holder}'s lease (read-committed: leases are never locked on the client path). */
  public LockRequest withLease(String holder) {
    leaseHolder = holder;
    return this;
  }

  /**
   * Also reads the extended attributes of each path's target in the same round trip as its lock, when the hints
   * know the target (otherwise {@link TransactionContext#xattrs} reads them on demand).
   */
  public LockRequest withXAttrs() {
    xattrs = true;
    return this;
  }

  List<PathLock> paths() {
    return paths;
  }

  boolean hasInode() {
    return inodeId >= 0;
  }

  long inodeId() {
    return inodeId;
  }

  LockMode inodeMode() {
    return inodeMode;
  }

  boolean inodeFileData() {
    return inodeFileData;
  }

  boolean xattrs() {
    return xattrs;
  }

  String leaseHolder() {
    return leaseHolder;
  }
}
