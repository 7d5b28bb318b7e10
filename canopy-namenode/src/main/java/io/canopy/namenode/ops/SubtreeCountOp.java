package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * One read-only transaction of a content summary or quota usage counted in batches (design 017): reads, at
 * read-committed and breadth first, at most {@code budget} inodes below the directories it is given (several per
 * transaction: a wide tree of small directories costs few transactions), checks the caller's read and execute access
 * on each directory as HDFS does, and counts directories, files, their length and storage space. Nothing is locked:
 * as HDFS's content summary, which yields its namesystem lock every few thousand inodes, the answer is not one
 * snapshot of a subtree that changes meanwhile. A directory held by a subtree operation is waited for, as any reader
 * waits for a flag. The first transaction starts from the path (null when it holds no directory); it answers the work
 * left for the next ones.
 */
public final class SubtreeCountOp implements Operation<SubtreeCountOp.Counted> {
  /**
   * Directories whose pages of children one round trip reads at most: a wide tree of small directories costs a
   * round trip per this many directories, not one per directory.
   */
  static final int ROUND_DIRECTORIES = 64;
  /** The smallest page a round gives each directory (a directory with more continues in a later round). */
  static final int MIN_PAGE = 16;
  /** The access checked on every directory: a content summary's, or a quota usage's (with the sticky-bit rule). */
  public enum Access {
    CONTENT_SUMMARY,
    QUOTA_USAGE
  }

  /** Work left: the children of {@code directory} (at {@code path}) after {@code startAfter} (null: all of them). */
  public record Pending(Inode directory, FsPath path, String startAfter) {
  }

  /** What one transaction counted, the directory counted from (the first one only), and the work left. */
  public record Counted(long rootId, long directories, long files, long length, long storageSpace,
      List<Pending> pending) {
  }

  private final FsPath rootPath;
  private final List<Pending> starts;
  private final int budget;
  private final PermissionChecker permissions;
  private final Access access;

  private SubtreeCountOp(FsPath rootPath, List<Pending> starts, int budget, PermissionChecker permissions,
      Access access) {
    if (budget < 1) {
      throw new IllegalArgumentException("count budget must be positive, got " + budget);
    }
    this.rootPath = rootPath;
    this.starts = List.copyOf(starts);
    this.budget = budget;
    this.permissions = permissions;
    this.access = access;
  }

  /** The first transaction: from the directory at {@code path}, counted itself. */
  public static SubtreeCountOp first(FsPath path, int budget, PermissionChecker permissions, Access access) {
    return new SubtreeCountOp(path, List.of(), budget, permissions, access);
  }

  /** A next transaction, on work the previous ones left. */
  public static SubtreeCountOp next(List<Pending> starts, int budget, PermissionChecker permissions, Access access) {
    if (starts.isEmpty()) {
      throw new IllegalArgumentException("a count transaction needs at least one directory to start from");
    }
    return new SubtreeCountOp(null, starts, budget, permissions, access);
  }

  @Override
  public String name() {
    return access == Access.CONTENT_SUMMARY ? "getContentSummary" : "getQuotaUsage";
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
  public LockRequest locks() {
    // the first page of the directory's children comes with the path's round trip
    return rootPath != null ? LockRequest.of(new PathLock(rootPath, LockMode.NONE, LockMode.NONE).withSubtree())
        : LockRequest.none();
  }

  @Override
  public Counted execute(TransactionContext context) throws IOException {
    Deque<Pending> queue = new ArrayDeque<>(starts);
    long rootId = -1;
    long directories = 0;
    if (rootPath != null) {
      ResolvedPath resolved = context.path(rootPath);
      Inode root = resolved.target();
      if (root == null || !root.directory()) {
        return null; // no directory there anymore: the caller's single transaction answers
      }
      rootId = root.id();
      directories = 1;
      queue.add(new Pending(root, rootPath, null));
    }
    long files = 0;
    long length = 0;
    List<Inode> counted = new ArrayList<>();
    long read = 0;
    while (!queue.isEmpty() && read < budget) {
      // several directories' pages in one round trip, each page small enough that the round stays within the budget
      long left = budget - read;
      int round = (int) Math.max(1, Math.min(Math.min(queue.size(), ROUND_DIRECTORIES), left / MIN_PAGE));
      int limit = (int) Math.min(PathLock.SUBTREE_SCAN_BATCH, left / round);
      List<Pending> items = new ArrayList<>(round);
      for (int i = 0; i < round; i++) {
        items.add(queue.poll());
      }
      List<List<Inode>> pages = context.unlockedChildrenPages(items.stream().map(Pending::directory).toList(),
          items.stream().map(Pending::startAfter).toList(), limit);
      for (int i = 0; i < round; i++) {
        Pending item = items.get(i);
        List<Inode> page = pages.get(i);
        read += page.size();
        List<Inode> checked = new ArrayList<>(page.size() + 1);
        checked.add(item.directory());
        for (Inode child : page) {
          if (child.subtreeLocked()) {
            context.conflictsWithSubtreeOperation(child.id(), child.subtreeLockOwner(),
                item.path().child(child.name()).toString());
          }
          checked.add(child);
          if (child.directory()) {
            directories++;
            queue.add(new Pending(child, item.path().child(child.name()), null));
          } else { // a link counts as a file without length, as in HDFS
            files++;
            length += child.size();
            counted.add(child);
          }
        }
        if (access == Access.CONTENT_SUMMARY) {
          permissions.checkEveryDirectory(context, item.path(), checked, FsAction.READ_EXECUTE);
        } else {
          permissions.checkSubtreeAccess(context, item.path(), checked, FsAction.READ_EXECUTE, false);
        }
        if (page.size() == limit) {
          queue.add(new Pending(item.directory(), item.path(), page.get(page.size() - 1).name()));
        }
      }
    }
    long space = counted.isEmpty() ? 0 : SubtreeUsage.of(context, counted, LockMode.NONE).storageSpace();
    return new Counted(rootId, directories, files, length, space, new ArrayList<>(queue));
  }
}
