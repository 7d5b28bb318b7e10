package io.canopy.namenode.ops;

import io.canopy.namenode.SubtreeSettings;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.ops.SubtreeProtocol.Directory;
import io.canopy.namenode.ops.SubtreeProtocol.Held;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ClientCall;
import io.canopy.namenode.tx.SubtreeTooLargeException;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * A recursive delete of a directory too large for one transaction, through HopsFS's subtree protocol (design 017;
 * docs/references.md [HopsFS-Thesis] s.4.1.5-4.1.6): {@link SubtreeProtocol} flags the directory and quiesces it,
 * checking the access the delete needs; the delete phase ({@link SubtreeDeleteBatchOp}) empties the directories
 * larger than a batch deepest first, a batch per transaction, taking the smaller directories below them whole;
 * {@link SubtreeFinishDeleteOp} removes the directory itself and answers the client's call. Other operations wait
 * while they meet the flag; the parent is locked only by the first and last transactions. If the delete stops halfway
 * (an error, a refused access), the flag is cleared and what was deleted stays deleted; if this namenode dies, others
 * ignore its flag once membership declares it dead, and a retry of the delete finishes the work.
 */
public final class SubtreeDelete {
  /** Times the last transaction looks the held directory up again when an ancestor was renamed meanwhile. */
  private static final int FINISH_ATTEMPTS = 5;

  private final SubtreeProtocol protocol;
  private final TransactionRunner runner;
  private final NamespaceServices services;
  private final DatanodeRegistry registry;
  private final SubtreeSettings settings;

  public SubtreeDelete(SubtreeProtocol protocol, NamespaceServices services, DatanodeRegistry registry) {
    this.protocol = protocol;
    this.runner = protocol.runner();
    this.services = services;
    this.registry = registry;
    this.settings = protocol.settings();
  }

  /** Deletes the directory at {@code path} and everything below it for the client call {@code call}. */
  public boolean delete(FsPath path, PermissionChecker permissions, ClientCall call) throws IOException {
    return protocol.run(path, "delete", permissions, SubtreeProtocol.Quiesce.DELETE, held -> {
      deleteBottomUp(held);
      held.check();
      boolean result = finish(path, held, call);
      held.removed = true;
      return result;
    }, () -> runner.run(new DeleteOp(services, registry, path, true, permissions, Long.MAX_VALUE), call));
  }

  /** The last transaction, at the directory's current path (an ancestor may have been renamed meanwhile). */
  private boolean finish(FsPath path, Held held, ClientCall call) throws IOException {
    for (int attempt = 1; ; attempt++) {
      FsPath now = runner.run(new SubtreePathOp(held.rootId));
      if (now == null) {
        throw new IOException("delete " + path + ": the directory it held (inode " + held.rootId + ") is gone");
      }
      try {
        return runner.run(new SubtreeFinishDeleteOp(services, registry, now, held.rootId, held.self), call);
      } catch (SubtreeFinishDeleteOp.Moved moved) {
        if (attempt == FINISH_ATTEMPTS) {
          throw new IOException("delete " + path + ": " + moved.getMessage() + " after " + attempt + " attempts");
        }
      }
    }
  }

  /**
   * Empties the directories larger than a batch, deepest first (those of one depth in parallel: their subtrees are
   * disjoint), each taking the smaller directories below it whole; the held directory last. A directory whose
   * subtree shrank to a batch or less once those below it were emptied is left for its parent to take whole: a deep
   * chain of directories costs a transaction per batch of them, not one per level.
   */
  private void deleteBottomUp(Held held) throws IOException {
    List<Directory> directories = held.directories;
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
        tasks.add(() -> emptyDirectory(held, directory.id, () -> held.pathOf(index), below));
      }
      held.runAll(tasks);
      for (Directory directory : emptied) {
        directory.size = 1;
      }
    }
  }

  /**
   * Empties one directory in transactions of about {@link SubtreeSettings#batchSize()} inodes; one whose files hold
   * more block rows than the namenode holds for one operation is halved until it fits.
   */
  private long emptyDirectory(Held held, long directoryId, Supplier<FsPath> directoryPath,
      Map<Long, Long> smallDirectories) throws IOException {
    long removed = 0;
    int budget = settings.batchSize();
    while (true) {
      held.check();
      int batch;
      try {
        batch = runner.run(new SubtreeDeleteBatchOp(registry, held.rootId, directoryId, directoryPath, budget,
            smallDirectories, held.self));
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
}
