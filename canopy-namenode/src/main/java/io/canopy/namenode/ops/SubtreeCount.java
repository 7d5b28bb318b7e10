package io.canopy.namenode.ops;

import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.SubtreeTooLargeException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.ipc.RetriableException;

/**
 * Counts a subtree too large for one transaction in read-only batches ({@link SubtreeCountOp}), for a content
 * summary or a quota usage (design 017): rounds of up to {@link SubtreeProtocol#QUIESCE_TASKS_PER_ROUND}
 * transactions on the namenode's subtree pool, each given up to {@link #STARTS_PER_TRANSACTION} of the directories
 * left. The namenode holds the directories still to read (about 250 bytes each), charged to its subtree rows like a
 * subtree operation's, and the totals: nothing per file.
 */
public final class SubtreeCount {
  /** Directories one transaction is given to start from at most. */
  static final int STARTS_PER_TRANSACTION = 64;

  /** A subtree's totals, counted from directory {@code rootId}, itself included. */
  public record Tally(long rootId, long directories, long files, long length, long storageSpace) {
    public long namespace() {
      return directories + files;
    }
  }

  private final TransactionRunner runner;
  private final SubtreeOperations operations;

  public SubtreeCount(TransactionRunner runner, SubtreeOperations operations) {
    this.runner = runner;
    this.operations = operations;
  }

  /** Counts the subtree of the directory at {@code path}, checking {@code access} on each directory. */
  public Tally count(FsPath path, PermissionChecker permissions, SubtreeCountOp.Access access) throws IOException {
    int budget = operations.settings().batchSize();
    SubtreeCountOp.Counted first = runner.run(SubtreeCountOp.first(path, budget, permissions, access));
    long rootId = first.rootId();
    long directories = first.directories();
    long files = first.files();
    long length = first.length();
    long space = first.storageSpace();
    List<SubtreeCountOp.Pending> work = first.pending();
    long heldRows = 0;
    AtomicBoolean stopped = new AtomicBoolean();
    try {
      while (!work.isEmpty()) {
        long rows = (work.size() + SubtreeProtocol.DIRECTORIES_PER_ROW - 1) / SubtreeProtocol.DIRECTORIES_PER_ROW;
        if (rows > heldRows) {
          take(path, access, rows, rows - heldRows);
          heldRows = rows;
        }
        List<Callable<SubtreeCountOp.Counted>> tasks = new ArrayList<>();
        int taken = 0;
        while (taken < work.size() && tasks.size() < SubtreeProtocol.QUIESCE_TASKS_PER_ROUND) {
          List<SubtreeCountOp.Pending> starts = work.subList(taken,
              Math.min(work.size(), taken + STARTS_PER_TRANSACTION));
          taken += starts.size();
          tasks.add(() -> {
            if (stopped.get()) {
              throw new IOException("counting " + path + ": stopped after another part of it failed");
            }
            return runner.run(SubtreeCountOp.next(starts, budget, permissions, access));
          });
        }
        List<SubtreeCountOp.Pending> next = new ArrayList<>(work.subList(taken, work.size()));
        for (SubtreeCountOp.Counted counted : SubtreeProtocol.runAll(operations, stopped, tasks)) {
          directories += counted.directories();
          files += counted.files();
          length += counted.length();
          space += counted.storageSpace();
          next.addAll(counted.pending());
        }
        work = next;
      }
      return new Tally(rootId, directories, files, length, space);
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
