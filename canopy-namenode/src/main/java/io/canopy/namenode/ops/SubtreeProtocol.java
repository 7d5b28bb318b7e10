package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.SubtreeSettings;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.Usage;
import io.canopy.namenode.tx.SubtreeTooLargeException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first two phases of HopsFS's subtree protocol (design 017; docs/references.md [HopsFS-Thesis] s.4.1.5-4.1.6) and
 * its bookkeeping, for the operations that take it: {@link SubtreeLockOp} flags the directory; the quiesce phase
 * ({@link SubtreeQuiesceOp}) locks every inode below it once, breadth first, about a batch of inodes per transaction,
 * remembering the directories (id, parent, name, how many files: nothing per file) and, when asked, counting the
 * storage space of the closed files and noting the open ones; then the operation's own third phase runs on the
 * {@link Held} subtree. Up to {@link SubtreeSettings#threads()} transactions run at once on independent parts. Whatever way
 * the operation ends, the flag is cleared (unless its last transaction removed the directory), the rows it charged are
 * given back, and no transaction of it still runs.
 */
public final class SubtreeProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeProtocol.class);

  /** Directories the namenode remembers per subtree row it charges: ~250 bytes each, a row is budgeted 1 KB. */
  static final int DIRECTORIES_PER_ROW = 4;
  /** How long a failed operation waits for its transactions still running before it clears its flag. */
  private static final long DRAIN_SECONDS = 120;
  /** Quiesce transactions one round submits at most: what a round's results hold in memory is bounded by it. */
  static final int QUIESCE_TASKS_PER_ROUND = 64;

  /** What the quiesce phase checks and counts on the way, besides locking. */
  public enum Quiesce {
    /** A delete: write access everywhere below (HDFS checks the whole subtree before deleting anything). */
    DELETE,
    /** A move or a quota: no access below, the storage space of the files counted. */
    COUNT
  }

  /** The third phase of an operation, on its held and quiesced subtree. */
  public interface Work<T> {
    T run(Held held) throws IOException;
  }

  /** The operation when its path holds no directory (anymore): the ordinary single transaction answers. */
  public interface Otherwise<T> {
    T run() throws IOException;
  }

  private final TransactionRunner runner;
  private final NamespaceServices services;
  private final SubtreeOperations operations;
  private final SubtreeSettings settings;
  private final LongSupplier namenodeId;

  public SubtreeProtocol(TransactionRunner runner, NamespaceServices services, SubtreeOperations operations,
      LongSupplier namenodeId) {
    this.runner = runner;
    this.services = services;
    this.operations = operations;
    this.settings = operations.settings();
    this.namenodeId = namenodeId;
  }

  TransactionRunner runner() {
    return runner;
  }

  SubtreeSettings settings() {
    return settings;
  }

  /**
   * Runs {@code operation} on the directory at {@code path} through the protocol: flags and quiesces it, then runs
   * {@code work}; {@code otherwise} when the path holds no directory.
   */
  public <T> T run(FsPath path, String operation, PermissionChecker permissions, Quiesce quiesce, Work<T> work,
      Otherwise<T> otherwise) throws IOException {
    long self = namenodeId.getAsLong();
    Inode root = runner.run(new SubtreeLockOp(path, operation, permissions, self, services::now));
    if (root == null) {
      return otherwise.run();
    }
    long started = System.nanoTime();
    boolean registered = false;
    Held held = new Held(path, operation, root.id(), self);
    try {
      if (!operations.started(root.id())) {
        throw new IOException(operation + " " + path + ": this namenode still runs an earlier operation on it (under "
            + "an id it had before it was evicted); retry later");
      }
      registered = true;
      quiesce(held, quiesce == Quiesce.DELETE ? permissions : null, quiesce == Quiesce.COUNT);
      LOG.info("{} {}: {} inodes in {} directories held and quiesced in {} ms", operation, path, held.inodes(),
          held.directories.size(), (System.nanoTime() - started) / 1_000_000);
      T result = work.run(held);
      LOG.info("{} {}: {} inodes, done through the subtree protocol in {} ms", operation, path, held.inodes(),
          (System.nanoTime() - started) / 1_000_000);
      return result;
    } finally {
      runner.subtreeRows().give(held.heldRows);
      if (!held.removed) {
        unlock(held);
      }
      if (registered) {
        operations.ended(root.id());
      }
    }
  }

  /**
   * A directory of the held subtree: its id, its parent's index in the list (-1: the held directory), its name, its
   * depth below the held directory, and the files found in it. About 100 bytes with its name: what the namenode holds
   * per directory for the operation; nothing per file.
   */
  static final class Directory {
    final long id;
    final int parent;
    final String name;
    final int depth;
    long files;
    /** Inodes of its subtree, itself included, once the quiesce phase is over. */
    long size;

    Directory(long id, int parent, String name, int depth) {
      this.id = id;
      this.parent = parent;
      this.name = name;
      this.depth = depth;
    }
  }

  /**
   * One operation's held subtree and shared state for its transactions running in parallel: its directories (the
   * held one first, each after its parent), stopped after the first failure (each transaction checks before it
   * starts), and stopped when this namenode was evicted from the group meanwhile (a long pause: it rejoined with a
   * new id, the operation is a dead namenode's now, which others may take over).
   */
  public final class Held {
    final FsPath path;
    final String operation;
    final long rootId;
    final long self;
    final AtomicBoolean stopped = new AtomicBoolean();
    final List<Directory> directories = new ArrayList<>();
    long closedSpace;
    final List<Long> openFiles = new ArrayList<>();
    long heldRows;
    /** Set by the last transaction of a delete, which removed the directory and its flag with it. */
    boolean removed;

    Held(FsPath path, String operation, long rootId, long self) {
      this.path = path;
      this.operation = operation;
      this.rootId = rootId;
      this.self = self;
    }

    public long rootId() {
      return rootId;
    }

    /** Inodes of the subtree, the held directory included. */
    public long inodes() {
      return directories.isEmpty() ? 0 : directories.get(0).size;
    }

    /**
     * What the subtree uses against quotas, counted by a {@link Quiesce#COUNT} quiesce phase (the open files' blocks
     * are read again by the operation's last transaction), for that transaction; another subtree it meets is counted
     * there up to {@code maxInodes}.
     */
    public SubtreeUsageSource usage(long maxInodes) {
      return SubtreeUsageSource.held(maxInodes, rootId, self, new Usage(inodes(), closedSpace), openFiles);
    }

    void check() throws IOException {
      if (stopped.get()) {
        throw new InterruptedIOException(operation + " " + path + ": stopped after another part of it failed");
      }
      if (namenodeId.getAsLong() != self) {
        throw new RetriableException(operation + " " + path + ": this namenode was evicted from the group (it was "
            + "namenode " + self + ", now " + namenodeId.getAsLong() + ") and stopped; what it did stays done; retry "
            + "it");
      }
    }

    /** The path of directory {@code index}: only for messages (a refusal names it) and invariant errors. */
    FsPath pathOf(int index) {
      List<String> names = new ArrayList<>();
      for (int at = index; directories.get(at).parent >= 0; at = directories.get(at).parent) {
        names.add(directories.get(at).name);
      }
      FsPath result = path;
      for (int i = names.size() - 1; i >= 0; i--) {
        result = result.child(names.get(i));
      }
      return result;
    }

    /**
     * Runs the tasks on the namenode's subtree pool and answers their results in order. The first failure stops the
     * others (each checks {@link #check()} before its next transaction) and waits until none runs any more (a
     * transaction in flight could still commit), then is thrown.
     */
    <T> List<T> runAll(List<Callable<T>> tasks) throws IOException {
      return SubtreeProtocol.runAll(operations, stopped, tasks);
    }
  }

  /**
   * Quiesces the held subtree: rounds of transactions, each round working on the parts the previous one left (at most
   * {@link #QUIESCE_TASKS_PER_ROUND} at a time), until none is left. Fills the directories, each after its parent
   * (the held one first), with their subtrees' sizes; they are charged to the namenode's subtree rows
   * ({@link #DIRECTORIES_PER_ROW} per row, at most half of them: a delete's own batches need the rest): a tree with
   * more directories is refused before anything is changed.
   */
  private void quiesce(Held held, PermissionChecker access, boolean countSpace) throws IOException {
    List<Directory> directories = held.directories;
    Map<Long, Integer> indexOf = new HashMap<>();
    directories.add(new Directory(held.rootId, -1, null, 0));
    indexOf.put(held.rootId, 0);
    List<SubtreeQuiesceOp.Pending> work = new ArrayList<>(List.of(new SubtreeQuiesceOp.Pending(held.rootId, null)));
    while (!work.isEmpty()) {
      List<SubtreeQuiesceOp.Pending> chunk = work.subList(0, Math.min(work.size(), QUIESCE_TASKS_PER_ROUND));
      List<Callable<SubtreeQuiesceOp.Quiesced>> tasks = new ArrayList<>();
      for (SubtreeQuiesceOp.Pending item : chunk) {
        int at = indexOf.get(item.directoryId());
        tasks.add(() -> {
          held.check();
          return runner.run(new SubtreeQuiesceOp(held.rootId, item, () -> held.pathOf(at), settings.batchSize(),
              access, countSpace));
        });
      }
      List<SubtreeQuiesceOp.Pending> next = new ArrayList<>(work.subList(chunk.size(), work.size()));
      List<SubtreeQuiesceOp.Quiesced> round = held.runAll(tasks);
      long foundNow = 0;
      for (SubtreeQuiesceOp.Quiesced quiesced : round) {
        foundNow += quiesced.directories().size() + quiesced.openFiles().size();
      }
      // the open files' ids are charged as directories: fewer bytes each, and few in practice
      long rows = (directories.size() + held.openFiles.size() + foundNow) / DIRECTORIES_PER_ROW - held.heldRows;
      takeRows(held, rows);
      held.heldRows += rows;
      for (SubtreeQuiesceOp.Quiesced quiesced : round) {
        for (SubtreeQuiesceOp.Found found : quiesced.directories()) {
          int parent = indexOf.get(found.parentId());
          indexOf.put(found.id(), directories.size());
          directories.add(new Directory(found.id(), parent, found.name(), directories.get(parent).depth + 1));
        }
        for (Map.Entry<Long, Long> files : quiesced.files().entrySet()) {
          directories.get(indexOf.get(files.getKey())).files += files.getValue();
        }
        held.closedSpace += quiesced.closedSpace();
        held.openFiles.addAll(quiesced.openFiles());
        next.addAll(quiesced.pending());
      }
      work = next;
    }
    for (Directory directory : directories) {
      directory.size = 1 + directory.files;
    }
    for (int index = directories.size() - 1; index > 0; index--) { // children come after their parents
      directories.get(directories.get(index).parent).size += directories.get(index).size;
    }
  }

  /**
   * Charges {@code rows} more subtree rows for the directories this operation remembers: past half the namenode's
   * bound on its own, the operation is refused (nothing changed yet); past the bound with what other operations
   * hold, it is told to retry.
   */
  private void takeRows(Held held, long rows) throws IOException {
    if (held.heldRows + rows > runner.subtreeRows().max() / 2) {
      throw new SubtreeTooLargeException(held.operation, held.path.toString(), runner.subtreeRows().max());
    }
    if (!runner.subtreeRows().tryTake(rows)) {
      throw new RetriableException(held.operation + " " + held.path + ": other operations hold so many subtree rows "
          + "that this one's " + (held.heldRows + rows) + " would pass the namenode's bound of "
          + runner.subtreeRows().max() + " (" + NameNodeConfig.SUBTREE_MAX_ROWS + "); try again shortly");
    }
  }

  /**
   * Runs {@code tasks} on the subtree pool of {@code operations}, answering their results in order; the first
   * failure sets {@code stopped} and waits until no task runs any more before it is thrown.
   */
  private static <T> List<T> runAll(SubtreeOperations operations, AtomicBoolean stopped, List<Callable<T>> tasks)
      throws IOException {
    CountDownLatch ended = new CountDownLatch(tasks.size());
    List<Future<T>> futures = new ArrayList<>(tasks.size());
    List<T> results = new ArrayList<>(tasks.size());
    boolean failed = true;
    try {
      for (Callable<T> task : tasks) {
        // counts down once it is done: run (whatever the outcome), or cancelled by a namenode that aborts
        FutureTask<T> future = new FutureTask<>(task) {
          @Override
          protected void done() {
            ended.countDown();
          }
        };
        try {
          operations.pool().execute(future);
          futures.add(future);
        } catch (RejectedExecutionException closing) {
          for (int never = futures.size(); never < tasks.size(); never++) {
            ended.countDown(); // not submitted: nothing to wait for
          }
          throw new InterruptedIOException("the namenode is closing: a subtree operation stopped");
        }
      }
      for (Future<T> future : futures) {
        results.add(future.get());
      }
      failed = false;
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a subtree operation");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IOException(e.getCause());
    } finally {
      if (failed) {
        stopped.set(true);
        awaitEnd(ended);
      }
    }
  }

  /**
   * Waits for the operation's transactions still running, even when interrupted (the caller clears the flag next:
   * it must not while one could still commit), then restores the interrupt.
   */
  private static void awaitEnd(CountDownLatch ended) {
    boolean interrupted = Thread.interrupted();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
    try {
      while (true) {
        try {
          if (!ended.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            LOG.warn("Subtree operation transactions still running {} s after a failure", DRAIN_SECONDS);
          }
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Clears the flag if it is still this operation's (a finished move or quota leaves it for this transaction). */
  private void unlock(Held held) {
    try {
      runner.run(new SubtreeUnlockOp(held.rootId, held.self, -1));
    } catch (IOException | RuntimeException e) {
      // the namenode's own-flag cleanup (OwnSubtreeLockCleaner) clears it later: it is no running operation's
      LOG.warn("{} {}: could not clear the subtree lock: {}", held.operation, held.path, e.getMessage());
    }
  }
}
