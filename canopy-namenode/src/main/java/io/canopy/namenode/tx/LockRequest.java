package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.namenode.fs.FsPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Everything an operation locks and reads before its body runs: paths, or one inode named by id (writers and
 * datanode reports), plus rows outside the inode hierarchy it wants read in the same round trip (a lease). The
 * transaction framework takes the locks in the global order: paths in path order, then the inode named by id.
 */
public final class LockRequest {
  private final List<PathLock> paths = new ArrayList<>();
  private long inodeId = -1;
  private LockMode inodeMode = LockMode.NONE;
  private PathLock.FileRead inodeFileData = PathLock.FileRead.NONE;
  private Set<Long> inodeFileBlocks;
  private String leaseHolder;
  private boolean xattrs;
  private QuotaLocks quota = QuotaLocks.NONE;
  private FsPath quotaHintPath;
  private long subtreeRoot = -1;

  /** Whether and when the quota rows above the locked paths (or the inode locked by id) are locked. */
  enum QuotaLocks {
    /** The operation changes no usage (or locks what it needs itself, paying a round trip). */
    NONE,
    /** In the lock round trip: the rows of the quota directories above every declared path, and the epoch check. */
    WITH_LOCKS,
    /**
     * The epoch check in the lock round trip, the rows when the operation asks: an operation that locks a subtree
     * first (delete, rename) must take the quota rows after it, since quota rows come after every inode in the global
     * lock order.
     */
    AFTER_SUBTREE
  }

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
    return withInodeFileData(PathLock.FileRead.ROWS);
  }

  /** {@link #withFileData}, and the file's database-resident bytes (see {@link PathLock#withFileDataAndSmallData}). */
  public LockRequest withFileDataAndSmallData() {
    return withInodeFileData(PathLock.FileRead.ROWS_AND_SMALL_DATA);
  }

  /**
   * With {@link #inode}: also reads, in the same round trip as its lock, the blocks among {@code blockIds} and their
   * replicas ({@link TransactionContext#readFileBlocks}), not the whole file: a report of a few blocks of a long file.
   */
  public LockRequest withFileBlocks(Set<Long> blockIds) {
    if (!hasInode() || inodeFileData != PathLock.FileRead.NONE) {
      throw new IllegalStateException("some blocks of a file on a request without an inode, or with its whole data");
    }
    inodeFileBlocks = Set.copyOf(blockIds);
    return this;
  }

  private LockRequest withInodeFileData(PathLock.FileRead read) {
    if (!hasInode() || inodeFileBlocks != null) {
      throw new IllegalStateException("file data on a request without an inode; use PathLock.withFileData");
    }
    inodeFileData = read;
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

  /**
   * The operation changes quota usage: for paths, the quota rows of the directories above each path are locked
   * exclusively in the lock round trip (after the inodes, in inode id order), and the quota epoch is checked. For an
   * inode locked by id, the lock round trip also tells whether any quota exists, and, when the hints know every
   * component of {@code hintPath} (the path the client names the file by, or null), reads that path's directories
   * and locks their quota rows too; otherwise the file's ancestors are found on demand
   * ({@link TransactionContext#ancestorsOf}).
   */
  public LockRequest withQuota(FsPath hintPath) {
    quota = QuotaLocks.WITH_LOCKS;
    quotaHintPath = hintPath;
    return this;
  }

  /** {@link #withQuota(FsPath)} for requests of paths. */
  public LockRequest withQuota() {
    return withQuota(null);
  }

  /** The operation changes quota usage after locking a subtree: see {@link QuotaLocks#AFTER_SUBTREE}. */
  public LockRequest withQuotaAfterSubtree() {
    quota = QuotaLocks.AFTER_SUBTREE;
    return this;
  }

  /**
   * The request is a step of the subtree operation holding the directory {@code rootId} (design 017): that
   * directory's flag does not stop it.
   */
  public LockRequest insideSubtreeOperation(long rootId) {
    subtreeRoot = rootId;
    return this;
  }

  /** The directory of the subtree operation this request is a step of, or -1. */
  long subtreeRoot() {
    return subtreeRoot;
  }

  QuotaLocks quota() {
    return quota;
  }

  FsPath quotaHintPath() {
    return quotaHintPath;
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

  /** The blocks {@link #withFileBlocks} asked for, or null. */
  Set<Long> inodeFileBlocks() {
    return inodeFileBlocks;
  }

  PathLock.FileRead inodeFileData() {
    return inodeFileData;
  }

  boolean xattrs() {
    return xattrs;
  }

  String leaseHolder() {
    return leaseHolder;
  }
}
