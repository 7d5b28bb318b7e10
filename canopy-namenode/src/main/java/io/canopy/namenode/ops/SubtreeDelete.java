package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
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

  private final TransactionRunner runner;
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
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
      SubtreeSettings settings, LongSupplier namenodeId) {
    this.runner = runner;
    this.services = services;
    this.registry = registry;
    this.settings = settings;
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
    boolean finished = false;
    ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), runnable -> {
      Thread thread = new Thread(runnable, "canopy-subtree-delete");
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Directory> directories = quiesce(pool, path, root, permissions);
      long inodes = directories.get(0).size;
      LOG.info("delete {}: {} inodes in {} directories held and quiesced in {} ms; deleting bottom-up", path, inodes,
          directories.size(), (System.nanoTime() - started) / 1_000_000);
      deleteBottomUp(pool, path, root.id(), directories);
      boolean result = runner.run(new SubtreeFinishDeleteOp(services, registry, path, root.id()), call);
      finished = true;
      LOG.info("delete {}: {} inodes deleted through the subtree protocol in {} ms", path, inodes,
          (System.nanoTime() - started) / 1_000_000);
      return result;
    } finally {
      pool.shutdownNow();
      if (!finished) {
        unlock(root.id(), self, path);
      }
    }
  }

  /**
   * Quiesces the held subtree: rounds of transactions, each round working on the parts the previous one left, until
   * none is left. Answers its directories, each after its parent (the held one first), with their subtrees' sizes.
   */
  private List<Directory> quiesce(ExecutorService pool, FsPath path, Inode root, PermissionChecker permissions)
      throws IOException {
    List<Directory> directories = new ArrayList<>();
    Map<Long, Integer> indexOf = new HashMap<>();
    directories.add(new Directory(root.id(), -1, null, 0));
    indexOf.put(root.id(), 0);
    List<SubtreeQuiesceOp.Pending> work = List.of(new SubtreeQuiesceOp.Pending(root.id(), null));
    while (!work.isEmpty()) {
      List<Callable<SubtreeQuiesceOp.Quiesced>> tasks = new ArrayList<>();
      for (SubtreeQuiesceOp.Pending item : work) {
        int at = indexOf.get(item.directoryId());
        tasks.add(() -> runner.run(new SubtreeQuiesceOp(root.id(), item, () -> pathOf(path, directories, at),
            settings.batchSize(), permissions)));
      }
      List<SubtreeQuiesceOp.Pending> next = new ArrayList<>();
      for (SubtreeQuiesceOp.Quiesced quiesced : runAll(pool, tasks)) {
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
    return directories;
  }

  /**
   * Empties the directories larger than a batch, deepest first (those of one depth in parallel: their subtrees are
   * disjoint), each taking the smaller directories below it whole; the held directory last. A directory whose
   * subtree shrank to a batch or less once those below it were emptied is left for its parent to take whole: a deep
   * chain of directories costs a transaction per batch of them, not one per level.
   */
  private void deleteBottomUp(ExecutorService pool, FsPath path, long rootId, List<Directory> directories)
      throws IOException {
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
        tasks.add(() -> emptyDirectory(rootId, directory.id, () -> pathOf(path, directories, index), below));
      }
      runAll(pool, tasks);
      for (Directory directory : emptied) {
        directory.size = 1;
      }
    }
  }

  /**
   * Empties one directory in transactions of about {@link SubtreeSettings#batchSize()} inodes; one whose files hold
   * more block rows than the namenode holds for one operation is halved until it fits.
   */
  private long emptyDirectory(long rootId, long directoryId, Supplier<FsPath> directoryPath,
      Map<Long, Long> smallDirectories) throws IOException {
    long removed = 0;
    int budget = settings.batchSize();
    while (true) {
      int batch;
      try {
        batch = runner.run(new SubtreeDeleteBatchOp(registry, rootId, directoryId, directoryPath, budget,
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

  /** Runs the tasks on the pool and answers their results in order; the first failure stops the others. */
  private static <T> List<T> runAll(ExecutorService pool, List<Callable<T>> tasks) throws IOException {
    List<Future<T>> futures = new ArrayList<>(tasks.size());
    for (Callable<T> task : tasks) {
      futures.add(pool.submit(task));
    }
    List<T> results = new ArrayList<>(tasks.size());
    try {
      for (Future<T> future : futures) {
        results.add(future.get());
      }
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
      for (Future<T> future : futures) {
        future.cancel(true);
      }
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
      runner.run(new SubtreeUnlockOp(rootId, self));
    } catch (IOException | RuntimeException e) {
      // the flag stays until this namenode's next try or its death: others wait for it, then ignore it
      LOG.warn("delete {}: could not clear the subtree lock after a failure: {}", path, e.getMessage());
    }
  }
}
