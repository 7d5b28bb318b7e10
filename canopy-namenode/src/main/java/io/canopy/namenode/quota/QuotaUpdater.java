package io.canopy.namenode.quota;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;

/**
 * The one way operations change quota usage (HDFS's FSDirectory.updateCount / verifyQuota): the usage rows of the
 * directories with a quota among the ancestors of what changed are locked (unless the lock round trip took them) and
 * updated in the operation's own transaction. A positive change is checked first, from the deepest quota directory
 * up, namespace before storage space, and fails with HDFS's exceptions and messages naming the directory.
 *
 * <p>append, truncate and concat charge through {@link #chargeChangeOf} (append also {@link #check}s), the
 * difference of their file's {@link StorageSpace}; declaring {@code LockRequest.withQuota} saves the round trip that
 * locks the rows (docs/compatibility/quota.md).
 */
public final class QuotaUpdater {
  private QuotaUpdater() {
  }

  /**
   * Adds {@code namespace} inodes and {@code storageSpace} bytes to every quota directory of {@code ancestors} (the
   * existing directories above what changed, root first), after checking the limits of those that grow.
   */
  public static void charge(TransactionContext context, List<Inode> ancestors, long namespace, long storageSpace)
      throws StoreException, QuotaExceededException {
    apply(context, ancestors, Set.of(), namespace, storageSpace, true);
  }

  /** {@link #charge} of a change at {@code path}'s target (or below its deepest existing directory). */
  public static void charge(TransactionContext context, ResolvedPath path, long namespace, long storageSpace)
      throws StoreException, QuotaExceededException {
    charge(context, path.above(), namespace, storageSpace);
  }

  /**
   * {@link #charge} to the quota directories of {@code ancestors} that are not in {@code exceptIds}: a move charges
   * only the directories it enters, not those it stays under (HDFS stops at the common ancestor).
   */
  public static void charge(TransactionContext context, List<Inode> ancestors, Set<Long> exceptIds, long namespace,
      long storageSpace) throws StoreException, QuotaExceededException {
    apply(context, ancestors, exceptIds, namespace, storageSpace, true);
  }

  /** {@link #release} from the quota directories of {@code ancestors} that are not in {@code exceptIds}. */
  public static void release(TransactionContext context, List<Inode> ancestors, Set<Long> exceptIds, long namespace,
      long storageSpace) throws StoreException {
    try {
      apply(context, ancestors, exceptIds, namespace, storageSpace, false);
    } catch (QuotaExceededException e) {
      throw new IllegalStateException("invariant: an unchecked quota change was checked", e);
    }
  }

  /** The ids of the directories with a quota among {@code ancestors}. */
  public static Set<Long> quotaIds(List<Inode> ancestors) {
    Set<Long> ids = new HashSet<>();
    for (Inode inode : ancestors) {
      if (inode.hasQuota()) {
        ids.add(inode.id());
      }
    }
    return ids;
  }

  /**
   * Changes usage without checking limits: usage given back (a delete, a block abandoned), or the correction HDFS
   * does not check either (a block committed shorter than the preferred block it was charged).
   */
  public static void release(TransactionContext context, List<Inode> ancestors, long namespace, long storageSpace)
      throws StoreException {
    release(context, ancestors, Set.of(), namespace, storageSpace);
  }

  /**
   * Checks that {@code storageSpace} more bytes below {@code inode}'s ancestors would fit their quotas, changing
   * nothing: HDFS's append checks the rest of a partial last block even when it will not charge it (NEW_BLOCK).
   */
  public static void check(TransactionContext context, Inode inode, long storageSpace)
      throws StoreException, QuotaExceededException {
    if (storageSpace > 0) {
      apply(context, context.ancestorsOf(inode), Set.of(), 0, storageSpace, true, false);
    }
  }

  /** {@link #charge} or {@link #release} of a change of {@code inode}, charged to its ancestors. */
  public static void chargeChangeOf(TransactionContext context, Inode inode, long namespace, long storageSpace,
      boolean check) throws StoreException, QuotaExceededException {
    if (namespace == 0 && storageSpace == 0) {
      return;
    }
    apply(context, context.ancestorsOf(inode), Set.of(), namespace, storageSpace, check, true);
  }

  private static void apply(TransactionContext context, List<Inode> ancestors, Set<Long> exceptIds, long namespace,
      long storageSpace, boolean check) throws StoreException, QuotaExceededException {
    apply(context, ancestors, exceptIds, namespace, storageSpace, check, true);
  }

  private static void apply(TransactionContext context, List<Inode> ancestors, Set<Long> exceptIds, long namespace,
      long storageSpace, boolean check, boolean update) throws StoreException, QuotaExceededException {
    if (namespace == 0 && storageSpace == 0) {
      return;
    }
    List<Integer> depths = new ArrayList<>();
    List<Inode> directories = new ArrayList<>();
    for (int depth = 0; depth < ancestors.size(); depth++) {
      if (ancestors.get(depth).hasQuota() && !exceptIds.contains(ancestors.get(depth).id())) {
        depths.add(depth);
        directories.add(ancestors.get(depth));
      }
    }
    if (directories.isEmpty()) {
      return;
    }
    context.lockQuotas(directories);
    if (check && (namespace > 0 || storageSpace > 0)) {
      for (int i = directories.size() - 1; i >= 0; i--) {
        verify(context.lockedQuota(directories.get(i)), namespace, storageSpace, ancestors, depths.get(i));
      }
    }
    for (Inode directory : directories) {
      if (update) {
        context.updateQuota(context.lockedQuota(directory).plus(namespace, storageSpace));
      }
    }
  }

  /** HDFS's Quota.isViolated: a limit is set, the change grows usage, and usage would pass the limit. */
  static boolean violated(long quota, long used, long delta) {
    return quota >= 0 && delta > 0 && used > quota - delta;
  }

  private static void verify(DirectoryQuota quota, long namespace, long storageSpace, List<Inode> ancestors,
      int depth) throws QuotaExceededException {
    if (violated(quota.namespaceQuota(), quota.namespaceUsed(), namespace)) {
      NSQuotaExceededException e = new NSQuotaExceededException(quota.namespaceQuota(),
          quota.namespaceUsed() + namespace);
      e.setPathName(pathOf(ancestors, depth));
      throw e;
    }
    if (violated(quota.storageSpaceQuota(), quota.storageSpaceUsed(), storageSpace)) {
      DSQuotaExceededException e = new DSQuotaExceededException(quota.storageSpaceQuota(),
          quota.storageSpaceUsed() + storageSpace);
      e.setPathName(pathOf(ancestors, depth));
      throw e;
    }
  }

  /** The path of {@code ancestors.get(depth)}, from the names of the directories above it. */
  static String pathOf(List<Inode> ancestors, int depth) {
    if (depth == 0) {
      return "/";
    }
    StringBuilder path = new StringBuilder();
    for (int i = 1; i <= depth; i++) {
      path.append('/').append(ancestors.get(i).name());
    }
    return path.toString();
  }
}
