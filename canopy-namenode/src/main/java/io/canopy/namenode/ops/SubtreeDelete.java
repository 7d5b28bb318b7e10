package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.SubtreeSettings;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ClientCall;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recursive delete of a directory too large for one transaction, through HopsFS's subtree protocol (design 017;
 * docs/references.md [HopsFS-Thesis] s.4.1.5-4.1.6): {@link SubtreeLockOp} flags the directory; the quiesce phase
 * ({@link SubtreeQuiesceOp}) locks every inode below it once, breadth first, about a batch of inodes per transaction,
 * checking the access the delete needs and remembering the directories (id, parent, name, how many files: nothing
 * per file); the delete phase ({@link SubtreeDeleteBatchOp}) empties the directories larger than a batch deepest
 * first, a batch per transaction, taking the smaller directories below them whole; {@link SubtreeFinishDeleteOp}
 * removes the directory itself and answers the client's call. Up to {@link SubtreeSettings#threads()} transactions
 * run at once on independent parts. Other operations wait while they meet the flag; the parent is locked only by the
 * first and last transactions. If the delete stops halfway (an error, a refused access), the flag is cleared and
 * what was deleted stays deleted; if this namenode dies, others ignore its flag once membership declares it dead, and
 * a retry of the delete finishes the work.
 */
public final class SubtreeDelete {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeDelete.class);

  /** Directories the namenode remembers per subtree row it charges: ~250 bytes each, a row is budgeted 1 KB. */
  static final int DIRECTORIES_PER_ROW = 4;
  /** Times the last transaction looks the held directory up again when an ancestor was renamed meanwhile. */
  private static final int FINISH_ATTEMPTS = 5;
  /** How long a failed operation waits for its transactions still running before it clears its flag. */
  private static final long DRAIN_SECONDS = 120;
  /** Quiesce transactions one round submits at most: what a round's results hold in memory is bounded by it. */
  static final int QUIESCE_TASKS_PER_ROUND = 64;

  private final TransactionRunner runner;
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final SubtreeOperations operations;
  private final SubtreeSettings settings;
  private final LongSupplier namenodeId;

  /**
   * A directory of the held subtree: its id, its parent's index in the list (-1: the held directory), its name, its
   * depth below the held directory, and the files found in it. About 100 bytes with its name: what the namenode holds
   * per directory for the operation; nothing per file.
   */
  private static final class Directory {
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

  public SubtreeDelete(TransactionRunner runner, NamespaceServices services, DatanodeRegistry registry,
      SubtreeOperations operations, LongSupplier namenodeId) {
    this.runner = runner;
    this.services = services;
    this.registry = registry;
    this.operations = operations;
    this.settings = operations.settings();
    this.namenodeId = namenodeId;
  }

  /** Deletes the directory at {@code path} and everything below it for the client call {@code call}. */
  public boolean delete(FsPath path, PermissionChecker permissions, ClientCall call) throws IOException {
    long self = namenodeId.getAsLong();
    Inode root = runner.run(new SubtreeLockOp(path, "delete", permissions, self, services::now));
    if (root == null) {
      // no directory there anymore: the single transaction answers (false for a missing path)
      return runner.run(new DeleteOp(services, registry, path, true, permissions, Long.MAX_VALUE), call);
    }
    long started = System.nanoTime();
    boolean registered = false;
    boolean finished = false;
    long heldRows = 0;
    Run run = new Run(path, root.id(), self);
    try {
      if (!operations.started(root.id())) {
        throw new IOException("delete " + path + ": this namenode still runs an earlier operation on it (under an id "
            + "it had before it was evicted); retry later");
      }
      registered = true;
      List<Directory> directories = new ArrayList<>();
      heldRows = quiesce(run, root, permissions, directories);
      long inodes = directories.get(0).size;
      LOG.info("delete {}: {} inodes in {} directories held and quiesced in {} ms; deleting bottom-up", path, inodes,
          directories.size(), (System.nanoTime() - started) / 1_000_000);
      deleteBottomUp(run, directories);
      run.check();
      boolean result = finish(path, root.id(), self, call);
      finished = true;
      LOG.info("delete {}: {} inodes deleted through the subtree protocol in {} ms", path, inodes,
          (System.nanoTime() - started) / 1_000_000);
      return result;
    } finally {
      runner.subtreeRows().give(heldRows);
      if (!finished) {
        unlock(root.id(), self, path);
      }
      if (registered) {
        operations.ended(root.id());
      }
    }
  }

  /**
   * One delete's shared state for its transactions running in parallel: stopped after the first failure (each
   * checks before its next transaction), and stopped when this namenode was evicted from the group meanwhile (a long
   * pause: it rejoined with a new id, the operation is a dead namenode's now, which others may take over).
   */
  private final class Run {
    final FsPath path;
    final long rootId;
    final long self;
    final AtomicBoolean stopped = new AtomicBoolean();

    Run(FsPath path, long rootId, long self) {
      this.path = path;
      this.rootId = rootId;
      this.self = self;
    }

    void check() throws IOException {
      if (stopped.get()) {
        throw new InterruptedIOException("delete " + path + ": stopped after another part of it failed");
      }
      if (namenodeId.getAsLong() != self) {
        throw new IOException("delete " + path + ": this namenode was evicted from the group (it was namenode "
            + self + ", now " + namenodeId.getAsLong() + ") and stopped the delete; what it deleted stays deleted; "
            + "retry it");
      }
    }
  }

  /** The last transaction, at the directory's current path (an ancestor may have been renamed meanwhile). */
  private boolean finish(FsPath path, long rootId, long self, ClientCall call) throws IOException {
    for (int attempt = 1; ; attempt++) {
      FsPath now = runner.run(new SubtreePathOp(rootId));
      if (now == null) {
        throw new IOException("delete " + path + ": the directory it held (inode " + rootId + ") is gone");
      }
      try {
        return runner.run(new SubtreeFinishDeleteOp(services, registry, now, rootId, self), call);
      } catch (SubtreeFinishDeleteOp.Moved moved) {
        if (attempt == FINISH_ATTEMPTS) {
          throw new IOException("delete " + path + ": " + moved.getMessage() + " after " + attempt + " attempts");
        }
      }
    }
  }

  /**
   * Quiesces the held subtree: rounds of transactions, each round working on the parts the previous one left (at most
   * {@link #QUIESCE_TASKS_PER_ROUND} at a time), until none is left. Fills {@code directories}, each after its parent
   * (the held one first), with their subtrees' sizes; they are charged to the namenode's subtree rows
   * ({@link #DIRECTORIES_PER_ROW} per row, at most half of them: the delete's own batches need the rest): a tree with
   * more directories is refused before anything is deleted. Answers the rows charged.
   */
  private long quiesce(Run run, Inode root, PermissionChecker permissions, List<Directory> directories)
      throws IOException {
    Map<Long, Integer> indexOf = new HashMap<>();
    long heldRows = 0;
    try {
      directories.add(new Directory(root.id(), -1, null, 0));
      indexOf.put(root.id(), 0);
      List<SubtreeQuiesceOp.Pending> work = new ArrayList<>(List.of(new SubtreeQuiesceOp.Pending(root.id(), null)));
      while (!work.isEmpty()) {
        List<SubtreeQuiesceOp.Pending> chunk = work.subList(0, Math.min(work.size(), QUIESCE_TASKS_PER_ROUND));
        List<Callable<SubtreeQuiesceOp.Quiesced>> tasks = new ArrayList<>();
        for (SubtreeQuiesceOp.Pending item : chunk) {
          int at = indexOf.get(item.directoryId());
          tasks.add(() -> {
            run.check();
            return runner.run(new SubtreeQuiesceOp(root.id(), item, () -> pathOf(run.path, directories, at),
                settings.batchSize(), permissions));
          });
        }
        List<SubtreeQuiesceOp.Pending> next = new ArrayList<>(work.subList(chunk.size(), work.size()));
        List<SubtreeQuiesceOp.Quiesced> round = runAll(run, tasks);
        long foundNow = 0;
        for (SubtreeQuiesceOp.Quiesced quiesced : round) {
          foundNow += quiesced.directories().size();
        }
        long rows = (directories.size() + foundNow) / DIRECTORIES_PER_ROW - heldRows;
        takeRows(run.path, heldRows, rows);
        heldRows += rows;
        for (SubtreeQuiesceOp.Quiesced quiesced : round) {
          for (SubtreeQuiesceOp.Found found : quiesced.directories()) {
            int parent = indexOf.get(found.parentId());
            indexOf.put(found.id(), directories.size());
            directories.add(new Directory(found.id(), parent, found.name(), directories.get(parent).depth + 1));
          }
          for (Map.Entry<Long, Long> files : quiesced.files().entrySet()) {
            directories.get(indexOf.get(files.getKey())).files += files.getValue();
          }
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
      return heldRows;
    } catch (IOException | RuntimeException e) {
      runner.subtreeRows().give(heldRows);
      throw e;
    }
  }

  /**
   * Charges {@code rows} more subtree rows for the directories this operation remembers: past half the namenode's
   * bound on its own, the delete is refused (nothing deleted yet); past the bound with what other operations hold, it
   * is told to retry.
   */
  private void takeRows(FsPath path, long held, long rows) throws IOException {
    if (held + rows > runner.subtreeRows().max() / 2) {
      throw new SubtreeTooLargeException("delete", path.toString(), runner.subtreeRows().max());
    }
    if (!runner.subtreeRows().tryTake(rows)) {
      throw new RetriableException("delete " + path + ": other operations hold so many subtree rows that this one's "
          + (held + rows) + " would pass the namenode's bound of " + runner.subtreeRows().max() + " ("
          + NameNodeConfig.SUBTREE_MAX_ROWS + "); try again shortly");
    }
  }

  /**
   * Empties the directories larger than a batch, deepest first (those of one depth in parallel: their subtrees are
   * disjoint), each taking the smaller directories below it whole; the held directory last. A directory whose
   * subtree shrank to a batch or less once those below it were emptied is left for its parent to take whole: a deep
   * chain of directories costs a transaction per batch of them, not one per level.
   */
  private void deleteBottomUp(Run run, List<Directory> directories) throws IOException {
    Map<Integer, List<Integer>> childrenOf = new HashMap<>();
    List<List<Integer>> largeByDepth = new ArrayList<>(); // larger than a batch before anything was deleted
    for (int index = 0; index < directories.size(); index++) {
      Directory directory = directories.get(index);
      if (index > 0) {
        childrenOf.computeIfAbsent(directory.parent, parent -> new ArrayList<>()).add(index);
      }
      if (index == 0 || directory.size > settings.batchSize()) {
        while (largeByDepth.size() <= directory.depth) {
          largeByDepth.add(new ArrayList<>());
        }
        largeByDepth.get(directory.depth).add(index);
      }
    }
    for (int depth = largeByDepth.size() - 1; depth >= 0; depth--) {
      List<Callable<Long>> tasks = new ArrayList<>();
      List<Directory> emptied = new ArrayList<>();
      for (int index : largeByDepth.get(depth)) {
        Directory directory = directories.get(index);
        Map<Long, Long> below = new HashMap<>();
        long remaining = 1 + directory.files;
        for (int child : childrenOf.getOrDefault(index, List.of())) {
          below.put(directories.get(child).id, directories.get(child).size);
          remaining += directories.get(child).size;
        }
        directory.size = remaining;
        if (index > 0 && remaining <= settings.batchSize()) {
          continue; // small now: its parent takes it whole
        }
        emptied.add(directory);
        tasks.add(() -> emptyDirectory(run, directory.id, () -> pathOf(run.path, directories, index), below));
      }
      runAll(run, tasks);
      for (Directory directory : emptied) {
        directory.size = 1;
      }
    }
  }

  /**
   * Empties one directory in transactions of about {@link SubtreeSettings#batchSize()} inodes; one whose files hold
   * more block rows than the namenode holds for one operation is halved until it fits.
   */
  private long emptyDirectory(Run run, long directoryId, Supplier<FsPath> directoryPath,
      Map<Long, Long> smallDirectories) throws IOException {
    long removed = 0;
    int budget = settings.batchSize();
    while (true) {
      run.check();
      int batch;
      try {
        batch = runner.run(new SubtreeDeleteBatchOp(registry, run.rootId, directoryId, directoryPath, budget,
            smallDirectories));
      } catch (SubtreeTooLargeException tooLarge) {
        if (budget == 1) {
          throw tooLarge;
        }
        budget = Math.max(1, budget / 2);
        continue;
      }
      if (batch == 0) {
        return removed;
      }
      removed += batch;
    }
  }

  /**
   * Runs the tasks on the namenode's subtree pool and answers their results in order. The first failure stops the
   * others (each checks {@link Run#check()} before its next transaction) and waits until none runs any more (a
   * transaction in flight could still commit), then is thrown.
   */
  private <T> List<T> runAll(Run run, List<Callable<T>> tasks) throws IOException {
    CountDownLatch ended = new CountDownLatch(tasks.size());
    List<Future<T>> futures = new ArrayList<>(tasks.size());
    for (Callable<T> task : tasks) {
      futures.add(operations.pool().submit(() -> {
        try {
          return task.call();
        } finally {
          ended.countDown(); // the wrapper alone counts: every task runs it, started early or late
        }
      }));
    }
    List<T> results = new ArrayList<>(tasks.size());
    boolean failed = true;
    try {
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
        run.stopped.set(true);
        awaitEnd(ended);
      }
    }
  }

  private static void awaitEnd(CountDownLatch ended) {
    try {
      if (!ended.await(DRAIN_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("Subtree operation transactions still running {} s after a failure", DRAIN_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The path of directory {@code index}: only for messages (a refusal names it) and invariant errors. */
  private static FsPath pathOf(FsPath rootPath, List<Directory> directories, int index) {
    List<String> names = new ArrayList<>();
    for (int at = index; directories.get(at).parent >= 0; at = directories.get(at).parent) {
      names.add(directories.get(at).name);
    }
    FsPath path = rootPath;
    for (int i = names.size() - 1; i >= 0; i--) {
      path = path.child(names.get(i));
    }
    return path;
  }

  private void unlock(long rootId, long self, FsPath path) {
    try {
      runner.run(new SubtreeUnlockOp(rootId, self, -1));
    } catch (IOException | RuntimeException e) {
      // the namenode's own-flag cleanup (OwnSubtreeLockCleaner) clears it later: it is no running operation's
      LOG.warn("delete {}: could not clear the subtree lock after a failure: {}", path, e.getMessage());
    }
  }
}
