package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * setQuota (HDFS's FSDirAttrOp.setQuota, without storage types): sets, changes or clears a directory's namespace and
 * storage-space quotas. {@link HdfsConstants#QUOTA_DONT_SET} keeps a limit, {@link HdfsConstants#QUOTA_RESET}
 * clears it; the root's namespace quota is reset to Long.MAX_VALUE, its permanent default in HDFS. A directory that
 * gets its first quota has its subtree counted under exclusive locks (nothing in it changes meanwhile) and the quota
 * epoch advances, so operations below it that read their path before re-run and charge the new row. Changing limits
 * only rewrites the row; clearing both removes it. Limits below the current usage are accepted, as in HDFS: they
 * stop further growth. The caller checks the superuser privilege.
 */
public final class SetQuotaOp implements Operation<Void> {
  private final FsPath path;
  private final long namespaceQuota;
  private final long storageSpaceQuota;
  private SubtreeUsageSource counting = SubtreeUsageSource.UNBOUNDED;

  public SetQuotaOp(FsPath path, long namespaceQuota, long storageSpaceQuota) {
    this.path = path;
    this.namespaceQuota = namespaceQuota;
    this.storageSpaceQuota = storageSpaceQuota;
  }

  /**
   * How the subtree of a directory getting its first quota is counted (design 017): by default in this
   * transaction, whatever its size.
   */
  public SetQuotaOp countingSubtree(SubtreeUsageSource counting) {
    this.counting = counting;
    return this;
  }

  /** HDFS's sanity check: a limit is non-negative, or one of the two special values. */
  public static void checkValues(long namespaceQuota, long storageSpaceQuota) {
    if (namespaceQuota < 0 && namespaceQuota != HdfsConstants.QUOTA_DONT_SET
        && namespaceQuota != HdfsConstants.QUOTA_RESET
        || storageSpaceQuota < 0 && storageSpaceQuota != HdfsConstants.QUOTA_DONT_SET
        && storageSpaceQuota != HdfsConstants.QUOTA_RESET) {
      throw new IllegalArgumentException("Illegal value for nsQuota or ssQuota : " + namespaceQuota + " and "
          + storageSpaceQuota);
    }
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "setQuota";
  }

  @Override
  public LockRequest locks() {
    return counting.guard(LockRequest.of(PathLock.write(path)));
  }

  @Override
  public Void execute(TransactionContext context) throws IOException {
    checkValues(namespaceQuota, storageSpaceQuota);
    ResolvedPath resolved = context.path(path);
    PathChecks.checkTraverse(resolved);
    Inode directory = resolved.target();
    if (directory == null) {
      throw new FileNotFoundException("Directory does not exist: " + path);
    }
    if (!directory.directory()) {
      throw new PathIsNotDirectoryException(path.toString());
    }
    Optional<DirectoryQuota> current = directory.hasQuota()
        ? context.readQuota(directory, LockMode.EXCLUSIVE) : Optional.empty();
    if (directory.hasQuota() && current.isEmpty()) {
      throw new IllegalStateException("invariant: directory " + path + " (inode " + directory.id() + ") is flagged "
          + "with a quota but has no quota row");
    }
    long oldNamespace = current.map(DirectoryQuota::namespaceQuota).orElse(defaultNamespaceQuota());
    long oldStorageSpace = current.map(DirectoryQuota::storageSpaceQuota).orElse(HdfsConstants.QUOTA_RESET);
    long newNamespace = namespaceQuota;
    if (path.isRoot() && namespaceQuota == HdfsConstants.QUOTA_RESET) {
      newNamespace = Long.MAX_VALUE; // HDFS: the root's namespace quota cannot be cleared, only reset
    } else if (namespaceQuota == HdfsConstants.QUOTA_DONT_SET) {
      newNamespace = oldNamespace;
    }
    long newStorageSpace = storageSpaceQuota == HdfsConstants.QUOTA_DONT_SET ? oldStorageSpace : storageSpaceQuota;
    if (newNamespace == oldNamespace && newStorageSpace == oldStorageSpace) {
      return null;
    }
    boolean limited = isLimit(newNamespace) || isLimit(newStorageSpace);
    if (current.isPresent()) {
      if (limited) {
        context.putQuota(directory, current.get().withLimits(newNamespace, newStorageSpace));
      } else {
        context.removeQuota(directory, false);
      }
      return null;
    }
    if (!limited) {
      return null; // the root reset to its default: nothing is stored for it
    }
    Usage usage = counting.usageOf(context, directory, path.toString());
    context.putQuota(directory, new DirectoryQuota(directory.id(), newNamespace, newStorageSpace,
        usage.namespace(), usage.storageSpace()));
    context.bumpQuotaEpoch();
    return null;
  }

  /** What a directory without a quota row reports: the root has HDFS's permanent Long.MAX_VALUE, others none. */
  private long defaultNamespaceQuota() {
    return path.isRoot() ? Long.MAX_VALUE : HdfsConstants.QUOTA_RESET;
  }

  /** A limit that can stop anything: -1 is none, and Long.MAX_VALUE (the root's default) cannot be reached. */
  private static boolean isLimit(long quota) {
    return quota >= 0 && quota != Long.MAX_VALUE;
  }
}
