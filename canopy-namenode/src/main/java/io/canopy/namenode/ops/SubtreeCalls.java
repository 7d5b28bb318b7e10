package io.canopy.namenode.ops;

import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ClientCall;
import io.canopy.namenode.tx.LargeSubtreeException;
import io.canopy.namenode.tx.SubtreeTooLargeException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.ipc.RetriableException;

/**
 * The client calls whose work grows with a subtree (design 017), sized as they run: each first runs as one
 * transaction that counts or locks at most {@link io.canopy.namenode.SubtreeSettings#protocolThreshold()} inodes;
 * past it, that transaction is rolled back and the call goes on through the subtree protocol
 * ({@link SubtreeProtocol}: a recursive delete, a move between quota directories, a first quota) or is counted in
 * read-only batches ({@link SubtreeCount}: a content summary, a quota usage). Small subtrees, the common case, cost
 * what they always did.
 */
public final class SubtreeCalls {
  private final TransactionRunner runner;
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final SubtreeProtocol protocol;
  private final SubtreeDelete deletes;
  private final SubtreeCount counts;
  private final long threshold;

  public SubtreeCalls(TransactionRunner runner, NamespaceServices services, DatanodeRegistry registry,
      SubtreeOperations operations, LongSupplier namenodeId) {
    this.runner = runner;
    this.services = services;
    this.registry = registry;
    this.protocol = new SubtreeProtocol(runner, services, operations, namenodeId);
    this.deletes = new SubtreeDelete(protocol, services, registry);
    this.counts = new SubtreeCount(runner, operations.settings());
    this.threshold = operations.settings().protocolThreshold();
  }

  public boolean delete(FsPath path, boolean recursive, PermissionChecker permissions, ClientCall call)
      throws IOException {
    try {
      return runner.run(new DeleteOp(services, registry, path, recursive, permissions, threshold), call);
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      return deletes.delete(path, permissions, call);
    }
  }

  public boolean rename(FsPath source, FsPath destination, PermissionChecker permissions, ClientCall call)
      throws IOException {
    try {
      return runner.run(rename(source, destination, permissions, SubtreeUsageSource.upTo(threshold)), call);
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      return protocol.run(source, "rename", permissions, SubtreeProtocol.Quiesce.COUNT,
          held -> inHold(source, held, () -> runner.run(rename(source, destination, permissions,
              held.usage(threshold)), call)),
          () -> inHold(source, null, () -> runner.run(rename(source, destination, permissions,
              SubtreeUsageSource.upTo(threshold)), call)));
    }
  }

  private RenameOp rename(FsPath source, FsPath destination, PermissionChecker permissions,
      SubtreeUsageSource counting) {
    return new RenameOp(services, registry, source, destination, permissions).countingSubtree(counting);
  }

  public void rename2(FsPath source, FsPath destination, boolean overwrite, PermissionChecker permissions,
      ClientCall call) throws IOException {
    try {
      runner.run(rename2(source, destination, overwrite, permissions, SubtreeUsageSource.upTo(threshold)), call);
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      protocol.run(source, "rename", permissions, SubtreeProtocol.Quiesce.COUNT,
          held -> inHold(source, held, () -> runner.run(rename2(source, destination, overwrite, permissions,
              held.usage(threshold)), call)),
          () -> inHold(source, null, () -> runner.run(rename2(source, destination, overwrite, permissions,
              SubtreeUsageSource.upTo(threshold)), call)));
    }
  }

  private Rename2Op rename2(FsPath source, FsPath destination, boolean overwrite, PermissionChecker permissions,
      SubtreeUsageSource counting) {
    return new Rename2Op(services, registry, source, destination, overwrite, permissions).countingSubtree(counting);
  }

  /**
   * setQuota; the caller checked the superuser privilege and the values. The root is never held by the protocol (its
   * flag would stop every operation): a first quota on it counts the namespace in one transaction, as it always did,
   * within the namenode's subtree rows.
   */
  public void setQuota(FsPath path, long namespaceQuota, long storageSpaceQuota, PermissionChecker permissions)
      throws IOException {
    if (path.isRoot()) {
      runner.run(setQuota(path, namespaceQuota, storageSpaceQuota, SubtreeUsageSource.UNBOUNDED));
      return;
    }
    try {
      runner.run(setQuota(path, namespaceQuota, storageSpaceQuota, SubtreeUsageSource.upTo(threshold)));
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      protocol.run(path, "setQuota", permissions, SubtreeProtocol.Quiesce.COUNT,
          held -> inHold(path, held, () -> runner.run(setQuota(path, namespaceQuota, storageSpaceQuota,
              held.usage(threshold)))),
          () -> inHold(path, null, () -> runner.run(setQuota(path, namespaceQuota, storageSpaceQuota,
              SubtreeUsageSource.upTo(threshold)))));
    }
  }

  private static SetQuotaOp setQuota(FsPath path, long namespaceQuota, long storageSpaceQuota,
      SubtreeUsageSource counting) {
    return new SetQuotaOp(path, namespaceQuota, storageSpaceQuota).countingSubtree(counting);
  }

  public ContentSummary contentSummary(FsPath path, PermissionChecker permissions) throws IOException {
    try {
      return runner.run(new GetContentSummaryOp(path, permissions).counting(threshold, null));
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      SubtreeCount.Tally tally = counts.count(path, permissions, SubtreeCountOp.Access.CONTENT_SUMMARY);
      // no directory there anymore: the single transaction answers (a file's summary, or FileNotFoundException)
      return inHold(path, null, () -> runner.run(new GetContentSummaryOp(path, permissions).counting(threshold,
          tally)));
    }
  }

  public QuotaUsage quotaUsage(FsPath path, PermissionChecker permissions) throws IOException {
    try {
      return runner.run(new GetQuotaUsageOp(path, permissions).counting(threshold, null));
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      SubtreeCount.Tally tally = counts.count(path, permissions, SubtreeCountOp.Access.QUOTA_USAGE);
      return inHold(path, null, () -> runner.run(new GetQuotaUsageOp(path, permissions).counting(threshold,
          tally)));
    }
  }

  /**
   * The last transaction of a move or a quota on a {@code held} directory (null: the path held no directory when the
   * protocol began), stopped first if the operation was (another part failed, this namenode was evicted): if the path
   * now names another directory too large to count in it (the held one was moved away and replaced meanwhile, or one
   * appeared), the client retries.
   */
  private static <T> T inHold(FsPath path, SubtreeProtocol.Held held, SubtreeProtocol.Otherwise<T> last)
      throws IOException {
    if (held != null) {
      held.check();
    }
    try {
      return last.run();
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      throw new RetriableException(path + " was replaced by another large directory while it was held; retry");
    }
  }
}
