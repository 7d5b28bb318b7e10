package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;

/**
 * getContentSummary: counts a subtree (directories, files, bytes, bytes times replication) by scanning it at
 * read-committed, one partition-scoped scan per directory batch.
 */
public final class GetContentSummaryOp implements Operation<ContentSummary> {
  private static final int SCAN_BATCH = 1000;

  private final FsPath path;

  public GetContentSummaryOp(FsPath path) {
    this.path = path;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "getContentSummary";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.of(PathLock.read(path));
  }

  @Override
  public ContentSummary execute(TransactionContext context) throws IOException {
    Inode root = PathChecks.requireTarget(context.path(path));
    long directories = 0;
    long files = 0;
    long length = 0;
    long space = 0;
    Deque<Inode> pending = new ArrayDeque<>();
    pending.add(root);
    while (!pending.isEmpty()) {
      Inode inode = pending.poll();
      if (!inode.directory()) {
        files++;
        length += inode.size();
        space += inode.size() * inode.replication();
        continue;
      }
      directories++;
      String after = null;
      while (true) {
        List<Inode> children = context.children(inode, after, SCAN_BATCH, LockMode.READ_COMMITTED);
        pending.addAll(children);
        if (children.size() < SCAN_BATCH) {
          break;
        }
        after = children.get(children.size() - 1).name();
      }
    }
    return new ContentSummary.Builder().length(length).fileCount(files).directoryCount(directories)
        .spaceConsumed(space).quota(-1).spaceQuota(-1)
        // HDFS names no policy for a directory without erasure coding, and "Replicated" for a plain file
        .erasureCodingPolicy(root.directory() ? "" : "Replicated").build();
  }
}
