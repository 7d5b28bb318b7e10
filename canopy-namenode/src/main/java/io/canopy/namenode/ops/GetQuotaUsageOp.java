package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.SubtreeUsage;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * getQuotaUsage (HDFS's FSDirStatAndListingOp.getQuotaUsage): for a directory with a quota, its stored limits and
 * usage (one row); for anything else, the usage counted like a content summary, with no limits (the root reports
 * HDFS's permanent namespace quota Long.MAX_VALUE). As in HDFS the caller needs execute on the ancestors and read and
 * execute on every directory of the subtree, with the sticky-bit rule of a recursive delete (HDFS's subAccess), also
 * for a directory with a quota: the usage tells sizes and counts of everything below.
 */
public final class GetQuotaUsageOp implements Operation<QuotaUsage> {
  private final FsPath path;
  private final PermissionChecker permissions;
  private long maxInodes = Long.MAX_VALUE;
  private SubtreeCount.Tally tally;

  public GetQuotaUsageOp(FsPath path, PermissionChecker permissions) {
    this.path = path;
    this.permissions = permissions;
  }

  /**
   * Counts the subtree here only up to {@code maxInodes} (past it: {@link io.canopy.namenode.tx.LargeSubtreeException},
   * for the caller to count it in batches), or takes {@code tally}, counted in batches for the directory it names.
   */
  public GetQuotaUsageOp counting(long maxInodes, SubtreeCount.Tally tally) {
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
    return "getQuotaUsage";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(new PathLock(path, LockMode.NONE, LockMode.NONE));
  }

  @Override
  public QuotaUsage execute(TransactionContext context) throws IOException {
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(context, resolved, permissions);
    permissions.checkTraverse(context, resolved);
    Inode target = resolved.target();
    List<Inode> subtree = null;
    Usage counted = null;
    if (target != null && tally != null && target.directory()) {
      // counted in batches, each directory's access checked there
      counted = new Usage(tally.requireFor(target, path).namespace(), tally.storageSpace());
    } else if (target != null && (!target.hasQuota() || permissions.checksAccess())) {
      // read to be counted, or, under a quota (whose row is the answer), only to check the caller's access to it
      subtree = context.subtree(target, LockMode.NONE, maxInodes);
      permissions.checkSubtreeAccess(context, path, subtree, FsAction.READ_EXECUTE, false);
    }
    if (target == null) {
      throw new FileNotFoundException("File/Directory does not exist: " + path);
    }
    if (target.hasQuota()) {
      Optional<DirectoryQuota> quota = context.readQuota(target, LockMode.NONE);
      if (quota.isPresent()) {
        return new QuotaUsage.Builder().fileAndDirectoryCount(quota.get().namespaceUsed())
            .quota(quota.get().namespaceQuota()).spaceConsumed(quota.get().storageSpaceUsed())
            .spaceQuota(quota.get().storageSpaceQuota()).build();
      }
      // cleared since the path was read: count, as for any directory without a quota
    }
    Usage usage = counted != null ? counted : SubtreeUsage.of(context, subtree != null ? subtree
        : context.subtree(target, LockMode.NONE, maxInodes), LockMode.NONE);
    return new QuotaUsage.Builder().fileAndDirectoryCount(usage.namespace())
        .quota(path.isRoot() ? Long.MAX_VALUE : -1).spaceConsumed(usage.storageSpace()).spaceQuota(-1).build();
  }
}
