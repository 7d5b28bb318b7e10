package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import java.util.ArrayList;
import java.util.List;

/** Everything an operation locks before its body runs: paths, or single inodes named by id (datanode reports). */
public final class LockRequest {
  private final List<PathLock> paths = new ArrayList<>();
  private long inodeId = -1;
  private LockMode inodeMode = LockMode.READ_COMMITTED;

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
}
