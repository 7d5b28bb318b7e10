package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.SubtreeUsage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * getContentSummary: counts a subtree (directories, files, bytes, storage space) by scanning it at read-committed,
 * one partition-scoped scan per directory batch. Storage space is what quotas charge (a block being written counts
 * as a whole preferred block, as in HDFS). A directory with a quota reports its limits (one more read); the root
 * without one reports HDFS's permanent namespace quota, Long.MAX_VALUE. As in HDFS the caller needs execute on the
 * ancestors and read and execute on every directory it counts.
 */
public final class GetContentSummaryOp implements Operation<ContentSummary> {
  private final FsPath path;
  private final PermissionChecker permissions;
  private long maxInodes = Long.MAX_VALUE;
  private SubtreeCount.Tally tally;

  public GetContentSummaryOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
    this.permissions = permissions;
  }

  /**
   * Counts the subtree here only up to {@code maxInodes} (past it: {@link io.canopy.namenode.tx.LargeSubtreeException},
   * for the caller to count it in batches), or takes {@code tally}, counted in batches for the directory it names.
   */
  public GetContentSummaryOp counting(long maxInodes, SubtreeCount.Tally tally) {
    if (maxInodes < 1) {
      throw new IllegalArgumentException("a subtree counted in a transaction has at least 1 inode, got " + maxInodes);
    }
    this.maxInodes = maxInodes;
    this.tally = tally;
    return this;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public String name() {
    return "getContentSummary";
  }

  @Override
  public LockRequest locks() {
    PathLock lock = new PathLock(path, LockMode.NONE, LockMode.NONE);
    return LockRequest.of(tally == null ? lock.withSubtree() : lock);
  }

  @Override
  public ContentSummary execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverseToLink(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode root = PathChecks.requireTargetOrLink(resolved); // HDFS counts a link itself, as one file
    if (root.directory()) {
      // the top directory first: a caller who may not read it is refused before the subtree is scanned
      permissions.checkPathAccess(context, resolved, FsAction.READ_EXECUTE);
    }
    SubtreeCount.Tally counted = tally != null && root.directory() ? tally.requireFor(root, path)
        : count(context, root);
    long directories = counted.directories();
    long files = counted.files();
    long length = counted.length();
    long space = counted.storageSpace();
    Optional<DirectoryQuota> quota = root.hasQuota() ? context.readQuota(root, LockMode.NONE)
        : Optional.empty();
    long namespaceQuota = quota.map(DirectoryQuota::namespaceQuota).orElse(path.isRoot() ? Long.MAX_VALUE : -1);
    long spaceQuota = quota.map(DirectoryQuota::storageSpaceQuota).orElse(-1L);
    return new ContentSummary.Builder().length(length).fileCount(files).directoryCount(directories)
        .spaceConsumed(space).quota(namespaceQuota).spaceQuota(spaceQuota)
        // HDFS names no policy for a directory without erasure coding or a link, and "Replicated" for a plain file
        .erasureCodingPolicy(root.directory() || root.isSymlink() ? "" : "Replicated").build();
  }

  /** Counts the subtree in this transaction, up to {@link #maxInodes}. */
  private SubtreeCount.Tally count(TransactionContext context, Inode root) throws IOException {
    long directories = 0;
    long files = 0;
    long length = 0;
    List<Inode> subtree = context.subtree(root, LockMode.NONE, maxInodes);
    permissions.checkEveryDirectory(context, path, subtree, FsAction.READ_EXECUTE);
    for (Inode inode : subtree) {
      if (inode.directory()) {
        directories++;
      } else { // a link counts as a file without length, as in HDFS
        files++;
        length += inode.size();
      }
    }
    long space = SubtreeUsage.of(context, subtree, LockMode.NONE).storageSpace();
    return new SubtreeCount.Tally(root.id(), directories, files, length, space);
  }
}
