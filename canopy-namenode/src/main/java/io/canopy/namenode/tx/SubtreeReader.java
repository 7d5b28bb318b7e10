package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ipc.RetriableException;

/**
 * Reads a subtree level by level for one transaction, and counts the rows it holds against the namenode's bound
 * ({@link SubtreeRows}), so that no operation holds more than {@link NameNodeConfig#SUBTREE_MAX_ROWS} rows in memory.
 */
final class SubtreeReader {
  /** Directories whose children one subtree round trip reads at most. */
  static final int SUBTREE_SCANS_PER_ROUND_TRIP = 64;
  /**
   * The smallest page of children a bounded read asks of one directory: near its bound a round trip still reads many
   * directories, each a small page (a larger directory continues in a later round trip), instead of one directory
   * per round trip (a count of 1,100 empty directories took 1,102 round trips that way).
   */
  static final int SUBTREE_MIN_PAGE = 16;

  private final Transaction transaction;
  private final RowCache cache;
  /** The namenode's subtree rows, those this transaction holds, and the operation's name for a refusal. */
  private final SubtreeRows subtreeRows;
  private final String operation;
  private final SubtreeFlags flags;
  private long heldSubtreeRows;

  SubtreeReader(Transaction transaction, RowCache cache, SubtreeRows subtreeRows, String operation,
      SubtreeFlags flags) {
    this.transaction = transaction;
    this.cache = cache;
    this.subtreeRows = subtreeRows;
    this.operation = operation;
    this.flags = flags;
  }

  /**
   * Every inode of the subtree under {@code root} (root first, parents before children), read level by level:
   * one round trip per level, each reading a page of children of every directory of the level, locked at
   * {@code mode} top-down. The first level comes from the lock round trip when the path was declared
   * {@link PathLock#withSubtree}. The inodes are held ({@link #holdSubtreeRows}) as each round trip reads them: a
   * subtree too large is refused as soon as a round trip reads past the limit, so the namenode holds at most one
   * round trip's rows more.
   */
  List<Inode> subtree(Inode root, LockMode mode, long maxInodes) throws IOException {
    List<Inode> all = new ArrayList<>();
    all.add(root);
    if (!root.directory()) {
      return all;
    }
    holdSubtreeRows(root, 1);
    int limit = PathLock.SUBTREE_SCAN_BATCH;
    // directories whose children are still to read, with the name to continue after
    Map<Inode, String> level = new LinkedHashMap<>();
    ReadBatch.Result<List<Inode>> first = cache.childrenPages.remove(new ChildrenPage(root.id(), null, limit, mode));
    if (first != null) {
      takePage(all, level, root, first.get(), limit, mode);
      holdSubtreeRows(root, all.size() - 1);
      checkSize(root, all, maxInodes);
    } else {
      level.put(root, null);
    }
    while (!level.isEmpty()) {
      Map<Inode, String> next = new LinkedHashMap<>();
      List<Map.Entry<Inode, String>> directories = new ArrayList<>(level.entrySet());
      // a level is read in round trips of at most SUBTREE_SCANS_PER_ROUND_TRIP directories: bounded statements
      // (and parameters) per pipeline however wide the tree is
      int scans;
      for (int from = 0; from < directories.size(); from += scans) {
        // a bounded read stops within about a page of its bound: the round trip's pages together hold no more than
        // the rows left, each of at least SUBTREE_MIN_PAGE
        long left = Math.max(0, maxInodes - all.size());
        scans = (int) Math.max(1, Math.min(Math.min(SUBTREE_SCANS_PER_ROUND_TRIP, directories.size() - from),
            left / SUBTREE_MIN_PAGE + 1));
        int pageLimit = (int) Math.max(SUBTREE_MIN_PAGE, Math.min(limit, left / scans + 1));
        int before = all.size();
        ReadBatch batch = transaction.batch();
        Map<Inode, ReadBatch.Result<List<Inode>>> pages = new LinkedHashMap<>();
        for (Map.Entry<Inode, String> entry : directories.subList(from,
            Math.min(directories.size(), from + scans))) {
          Inode directory = entry.getKey();
          pages.put(directory, directory.spreadsChildren()
              ? batch.spreadChildren(directory.id(), entry.getValue(), pageLimit, mode)
              : batch.children(directory.id(), directory.id(), entry.getValue(), pageLimit, mode));
        }
        batch.execute();
        for (Map.Entry<Inode, ReadBatch.Result<List<Inode>>> entry : pages.entrySet()) {
          takePage(all, next, entry.getKey(), entry.getValue().get(), pageLimit, mode);
        }
        holdSubtreeRows(root, all.size() - before);
        checkSize(root, all, maxInodes);
      }
      level = next;
    }
    return all;
  }

  private void checkSize(Inode root, List<Inode> all, long maxInodes) throws LargeSubtreeException {
    if (all.size() > maxInodes) {
      throw new LargeSubtreeException(pathOf(root), maxInodes);
    }
  }

  /**
   * Counts {@code rows} more that this transaction holds in memory for the subtree under {@code root} (its inodes as
   * they are read, the block-level rows of its files before a delete reads them) against the namenode's
   * {@link NameNodeConfig#SUBTREE_MAX_ROWS}: more than it on its own is refused ({@link SubtreeTooLargeException});
   * more than what other operations leave answers HDFS's RetriableException, as they give theirs back soon.
   */
  void holdSubtreeRows(Inode root, long rows) throws IOException {
    if (heldSubtreeRows + rows > subtreeRows.max()) {
      throw new SubtreeTooLargeException(operation, pathOf(root), subtreeRows.max());
    }
    if (!subtreeRows.tryTake(rows)) {
      throw new RetriableException(operation + " " + pathOf(root) + ": other operations hold "
          + (subtreeRows.held() - heldSubtreeRows) + " rows of subtrees, and with this one's "
          + (heldSubtreeRows + rows) + " the namenode would hold more than " + subtreeRows.max() + " ("
          + NameNodeConfig.SUBTREE_MAX_ROWS + "); try again shortly");
    }
    heldSubtreeRows += rows;
  }

  /** Gives back the subtree rows this transaction held: it ended, and what it read is garbage. */
  void releaseSubtreeRows() {
    subtreeRows.give(heldSubtreeRows);
    heldSubtreeRows = 0;
  }

  /** The path this operation resolved {@code inode} at, for messages; its id when it resolved none. */
  private String pathOf(Inode inode) {
    for (ResolvedPath path : cache.resolved.values()) {
      for (int depth = path.existingCount() - 1; depth >= 0; depth--) {
        if (path.at(depth).id() == inode.id()) {
          return path.path().ancestor(depth).toString();
        }
      }
    }
    return "inode " + inode.id() + " (" + inode.name() + ")";
  }

  private void takePage(List<Inode> all, Map<Inode, String> next, Inode directory, List<Inode> page, int limit,
      LockMode mode) throws SubtreeLockedException {
    for (Inode child : page) {
      // a directory below held by a subtree operation: this one waits for it as for a flag on its own path
      flags.check(child, -1, () -> pathOf(directory) + "/" + child.name());
      all.add(child);
      if (mode != LockMode.NONE) {
        cache.noteLock(child.id(), mode);
      }
      if (child.directory()) {
        next.put(child, null);
      }
    }
    if (page.size() == limit) {
      next.put(directory, page.get(page.size() - 1).name()); // more children: continue after the last one
    }
  }
}
