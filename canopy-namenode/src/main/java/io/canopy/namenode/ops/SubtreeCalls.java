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
    return counted(source, "rename", permissions, counting -> runner.run(
        new RenameOp(services, registry, source, destination, permissions).countingSubtree(counting), call));
  }

  public void rename2(FsPath source, FsPath destination, boolean overwrite, PermissionChecker permissions,
      ClientCall call) throws IOException {
    counted(source, "rename", permissions, counting -> runner.run(
        new Rename2Op(services, registry, source, destination, overwrite, permissions).countingSubtree(counting),
        call));
  }

  /**
   * setQuota; the caller checked the superuser privilege and the values. The root is never held by the protocol (its
   * flag would stop every operation): a first quota on it counts the namespace in one transaction, as it always did,
   * within the namenode's subtree rows.
   */
  public void setQuota(FsPath path, long namespaceQuota, long storageSpaceQuota, PermissionChecker permissions)
      throws IOException {
    CountedCall<Void> setQuota = counting -> runner.run(
        new SetQuotaOp(path, namespaceQuota, storageSpaceQuota).countingSubtree(counting));
    if (path.isRoot()) {
      setQuota.run(SubtreeUsageSource.UNBOUNDED);
    } else {
      counted(path, "setQuota", permissions, setQuota);
    }
  }

  public ContentSummary contentSummary(FsPath path, PermissionChecker permissions) throws IOException {
    return batched(path, permissions, SubtreeCountOp.Access.CONTENT_SUMMARY,
        tally -> runner.run(new GetContentSummaryOp(path, permissions).counting(threshold, tally)));
  }

  public QuotaUsage quotaUsage(FsPath path, PermissionChecker permissions) throws IOException {
    return batched(path, permissions, SubtreeCountOp.Access.QUOTA_USAGE,
        tally -> runner.run(new GetQuotaUsageOp(path, permissions).counting(threshold, tally)));
  }

  /** A call that counts the subtree it moves or puts under a quota as it is told. */
  private interface CountedCall<T> {
    T run(SubtreeUsageSource counting) throws IOException;
  }

  /** A content summary or quota usage: counting in its transaction (tally null), or given the batches' tally. */
  private interface TalliedCall<T> {
    T run(SubtreeCount.Tally tally) throws IOException;
  }

  /**
   * A move or a first quota: one transaction counting up to the threshold; past it, through the subtree protocol,
   * the last transaction given the quiesce phase's count (or, when the path holds no directory anymore, counting in
   * its transaction again).
   */
  private <T> T counted(FsPath path, String operation, PermissionChecker permissions, CountedCall<T> call)
      throws IOException {
    try {
      return call.run(SubtreeUsageSource.upTo(threshold));
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      return protocol.run(path, operation, permissions, SubtreeProtocol.Quiesce.COUNT,
          held -> inHold(path, held, () -> call.run(held.usage(threshold))),
          () -> inHold(path, null, () -> call.run(SubtreeUsageSource.upTo(threshold))));
    }
  }

  /**
   * A content summary or quota usage: one transaction counting up to the threshold; past it, counted in read-only
   * batches and answered by a last transaction given the tally (null when the path holds no directory anymore: the
   * single transaction then answers, a file's figures or FileNotFoundException).
   */
  private <T> T batched(FsPath path, PermissionChecker permissions, SubtreeCountOp.Access access,
      TalliedCall<T> call) throws IOException {
    try {
      return call.run(null);
    } catch (LargeSubtreeException | SubtreeTooLargeException large) {
      SubtreeCount.Tally tally = counts.count(path, permissions, access);
      return inHold(path, null, () -> call.run(tally));
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
