package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.quota.StorageSpace;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * One transaction of the subtree protocol's quiesce phase (design 017): from a directory of the held subtree (after
 * {@code startAfter} in its children, when it was cut short before), locks exclusively, breadth first, at most
 * {@code budget} inodes below it, which waits for every operation that started on them before the flag was set, and checks
 * there the access a delete needs (HDFS checks the whole subtree before deleting anything), or counts the storage space
 * of the closed files for a move or a quota and notes the open ones. The locks go at commit; operations starting later
 * meet the flag. Answers the directories found, the files counted per directory, the storage space counted, and where
 * the work goes on: directories whose children this transaction did not read, or not all of.
 */
public final class SubtreeQuiesceOp implements Operation<SubtreeQuiesceOp.Quiesced> {
  /** Work left: the children of {@code directoryId} after {@code startAfter} (null: all of them). */
  public record Pending(long directoryId, String startAfter) {
  }

  /** A directory found below: its id, its parent's id, its name. */
  public record Found(long id, long parentId, String name) {
  }

  /**
   * What one transaction found: directories (parents first), files per directory id, the work left, and, when
   * counting, the storage space of the closed files it read and the ids of the open ones (whose blocks may still
   * change through by-id calls: they are counted again in the operation's last transaction).
   */
  public record Quiesced(List<Found> directories, Map<Long, Long> files, List<Pending> pending, long inodes,
      long closedSpace, List<Long> openFiles) {
  }

  private final long rootId;
  private final Pending start;
  private final Supplier<FsPath> startPath;
  private final int budget;
  /** The access a delete checks below; null: none. */
  private final PermissionChecker access;
  private final boolean countSpace;

  public SubtreeQuiesceOp(long rootId, Pending start, Supplier<FsPath> startPath, int budget,
      PermissionChecker access, boolean countSpace) {
    if (budget < 1) {
      throw new IllegalArgumentException("quiesce budget must be positive, got " + budget);
    }
    this.rootId = rootId;
    this.start = start;
    this.startPath = startPath;
    this.budget = budget;
    this.access = access;
    this.countSpace = countSpace;
  }

  @Override
  public String name() {
    return "subtreeQuiesce";
  }

  /** It only takes and releases locks: running it again after a lost commit reply changes nothing. */
  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public LockRequest locks() {
    return LockRequest.inode(start.directoryId(), LockMode.EXCLUSIVE).insideSubtreeOperation(rootId);
  }

  @Override
  public Quiesced execute(TransactionContext context) throws IOException {
    Inode first = SubtreeSteps.heldDirectory(context, start.directoryId(), startPath);
    Map<Long, Inode> directories = new HashMap<>(); // read in this transaction, locked: for paths and children
    directories.put(first.id(), first);
    Deque<Pending> queue = new ArrayDeque<>(List.of(start));
    List<Found> found = new ArrayList<>();
    Map<Long, Long> files = new HashMap<>();
    long closedSpace = 0;
    List<Long> openFiles = new ArrayList<>();
    long read = 0;
    while (!queue.isEmpty() && read < budget) {
      Pending item = queue.poll();
      Inode directory = directories.get(item.directoryId());
      int limit = (int) (budget - read);
      List<Inode> page = context.children(directory, item.startAfter(), limit, LockMode.EXCLUSIVE);
      read += page.size();
      Supplier<FsPath> path = () -> pathOf(directory, directories);
      List<Inode> checked = new ArrayList<>(page.size() + 1);
      checked.add(directory);
      long fileCount = 0;
      for (Inode child : page) {
        if (child.subtreeLocked()) {
          // started before this one's flag (its check saw none below): wait for it, unless its namenode is dead
          context.conflictsWithSubtreeOperation(child.id(), child.subtreeLockOwner(),
              path.get().child(child.name()).toString());
        }
        checked.add(child);
        if (child.directory()) {
          directories.put(child.id(), child);
          found.add(new Found(child.id(), directory.id(), child.name()));
          queue.add(new Pending(child.id(), null));
        } else {
          fileCount++;
          if (countSpace && child.underConstruction()) {
            openFiles.add(child.id());
          } else if (countSpace) {
            closedSpace += StorageSpace.ofClosedFile(child);
          }
        }
      }
      if (access != null) {
        access.checkSubtreeAccess(context, path, checked, FsAction.ALL, true); // an empty directory needs none
      }
      files.merge(directory.id(), fileCount, Long::sum);
      if (page.size() == limit) {
        queue.add(new Pending(directory.id(), page.get(page.size() - 1).name())); // more children after these
      }
    }
    return new Quiesced(found, files, new ArrayList<>(queue), read, closedSpace, openFiles);
  }

  /** A directory's path, for messages only: walked up through what this transaction read, then the start's path. */
  private FsPath pathOf(Inode directory, Map<Long, Inode> directories) {
    List<String> names = new ArrayList<>();
    for (Inode at = directory; at.id() != start.directoryId(); at = directories.get(at.parentId())) {
      names.add(at.name());
    }
    FsPath path = startPath.get();
    for (int i = names.size() - 1; i >= 0; i--) {
      path = path.child(names.get(i));
    }
    return path;
  }
}
