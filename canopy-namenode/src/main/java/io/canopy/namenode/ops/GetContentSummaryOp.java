package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.quota.SubtreeUsage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.ContentSummary;

/**
 * getContentSummary: counts a subtree (directories, files, bytes, storage space) by scanning it at read-committed,
 * one partition-scoped scan per directory batch. Storage space is what quotas charge (a block being written counts
 * as a whole preferred block, as in HDFS). A directory with a quota reports its limits (one more read); the root
 * without one reports HDFS's permanent namespace quota, Long.MAX_VALUE.
 */
public final class GetContentSummaryOp implements Operation<ContentSummary> {
  private final FsPath path;

  public GetContentSummaryOp(FsPath path) {
    this.path = path;
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
    return LockRequest.of(new PathLock(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED).withSubtree());
  }

  @Override
  public ContentSummary execute(TransactionContext context) throws IOException {
    Inode root = PathChecks.requireTarget(context.path(path));
    long directories = 0;
    long files = 0;
    long length = 0;
    List<Inode> subtree = context.subtree(root, LockMode.READ_COMMITTED);
    for (Inode inode : subtree) {
      if (inode.directory()) {
        directories++;
      } else {
        files++;
        length += inode.size();
      }
    }
    long space = SubtreeUsage.of(context, subtree, LockMode.READ_COMMITTED).storageSpace();
    Optional<DirectoryQuota> quota = root.hasQuota() ? context.readQuota(root, LockMode.READ_COMMITTED)
        : Optional.empty();
    long namespaceQuota = quota.map(DirectoryQuota::namespaceQuota).orElse(path.isRoot() ? Long.MAX_VALUE : -1);
    long spaceQuota = quota.map(DirectoryQuota::storageSpaceQuota).orElse(-1L);
    return new ContentSummary.Builder().length(length).fileCount(files).directoryCount(directories)
        .spaceConsumed(space).quota(namespaceQuota).spaceQuota(spaceQuota)
        // HDFS names no policy for a directory without erasure coding, and "Replicated" for a plain file
        .erasureCodingPolicy(root.directory() ? "" : "Replicated").build();
  }
}
