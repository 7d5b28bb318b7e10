package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.SubtreeSettings;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.SubtreeTooLargeException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.ipc.RetriableException;

/**
 * Counts a subtree too large for one transaction in read-only batches ({@link SubtreeCountOp}), for a content
 * summary or a quota usage (design 017): one transaction after another in the caller's thread, each given up to
 * {@link #STARTS_PER_TRANSACTION} of the directories left. Not on the subtree operations' pool: a count meeting a
 * flag waits for it, and must not hold back the operation that set it. The namenode holds the directories still to
 * read (about 250 bytes each), charged to its subtree rows like a subtree operation's, and the totals: nothing per
 * file.
 */
public final class SubtreeCount {
  /** Directories one transaction is given to start from at most. */
  static final int STARTS_PER_TRANSACTION = 64;

  /** A subtree's totals, counted from directory {@code rootId}, itself included. */
  public record Tally(long rootId, long directories, long files, long length, long storageSpace) {
    public long namespace() {
      return directories + files;
    }

    /** This tally, for {@code directory} at {@code path}: counted for another one, the path changed since. */
    Tally requireFor(Inode directory, FsPath path) throws RetriableException {
      if (rootId != directory.id()) {
        throw new RetriableException(path + " changed while its subtree was being counted; retry");
      }
      return this;
    }
  }

  private final TransactionRunner runner;
  private final SubtreeSettings settings;

  public SubtreeCount(TransactionRunner runner, SubtreeSettings settings) {
    this.runner = runner;
    this.settings = settings;
  }

  /**
   * Counts the subtree of the directory at {@code path}, checking {@code access} on each directory; null when the
   * path holds no directory (anymore).
   */
  public Tally count(FsPath path, PermissionChecker permissions, SubtreeCountOp.Access access) throws IOException {
    int budget = settings.batchSize();
    SubtreeCountOp.Counted first = runner.run(SubtreeCountOp.first(path, budget, permissions, access));
    if (first == null) {
      return null;
    }
    long directories = first.directories();
    long files = first.files();
    long length = first.length();
    long space = first.storageSpace();
    Deque<SubtreeCountOp.Pending> work = new ArrayDeque<>(first.pending());
    long heldRows = 0;
    try {
      while (!work.isEmpty()) {
        long rows = (work.size() + SubtreeProtocol.DIRECTORIES_PER_ROW - 1) / SubtreeProtocol.DIRECTORIES_PER_ROW;
        if (rows > heldRows) {
          take(path, access, rows, rows - heldRows);
          heldRows = rows;
        }
        List<SubtreeCountOp.Pending> starts = new ArrayList<>();
        while (!work.isEmpty() && starts.size() < STARTS_PER_TRANSACTION) {
          starts.add(work.poll());
        }
        SubtreeCountOp.Counted counted = runner.run(SubtreeCountOp.next(starts, budget, permissions, access));
        directories += counted.directories();
        files += counted.files();
        length += counted.length();
        space += counted.storageSpace();
        work.addAll(counted.pending());
      }
      return new Tally(first.rootId(), directories, files, length, space);
    } finally {
      runner.subtreeRows().give(heldRows);
    }
  }
  /** Charges {@code more} rows, {@code total} with those held: refused past half the bound, retried past all of it. */
  private void take(FsPath path, SubtreeCountOp.Access access, long total, long more) throws IOException {
    String operation = access == SubtreeCountOp.Access.CONTENT_SUMMARY ? "getContentSummary" : "getQuotaUsage";
    if (total > runner.subtreeRows().max() / 2) {
      throw new SubtreeTooLargeException(operation, path.toString(), runner.subtreeRows().max());
    }
    if (!runner.subtreeRows().tryTake(more)) {
      throw new RetriableException(operation + " " + path + ": other operations hold so many subtree rows that "
          + "counting this subtree would pass the namenode's bound of " + runner.subtreeRows().max() + "; try again "
          + "shortly");
    }
  }
}
