package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.InodePartitioning;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.RetriableException;

/** What the subtree protocol's steps share (design 017). */
final class SubtreeSteps {
  /** Ancestors walked up at most: a cycle is a broken namespace. */
  private static final int MAX_DEPTH = 10_000;

  private SubtreeSteps() {
  }

  /**
   * Inode {@code inodeId} and its ancestors below the root, deepest first, as last committed (read without locks, one
   * round trip each); null when one of them is gone.
   */
  static List<Inode> committedChain(TransactionContext context, long inodeId) throws IOException {
    List<Inode> chain = new ArrayList<>();
    for (long current = inodeId; current != InodePartitioning.ROOT_ID; ) {
      Optional<Inode> inode = context.unlockedInodeById(current);
      if (inode.isEmpty()) {
        return null;
      }
      chain.add(inode.get());
      if (chain.size() > MAX_DEPTH) {
        throw new IllegalStateException("invariant: more than " + MAX_DEPTH + " ancestors above inode " + inodeId);
      }
      current = inode.get().parentId();
    }
    return chain;
  }

  /**
   * A check against this namenode's eviction, for a step that changes the held subtree or counts on it (design 017):
   * its own membership descriptor still exists (read without a lock, as last committed). Once it is gone, other
   * namenodes may have ignored the flag and worked below it, and the step must not commit. It catches an eviction
   * committed before this read, so a namenode resuming from a long pause between two steps stops; a pause inside one
   * transaction, after this read, is still a window. Closing it needs a key-share lock here and an eviction that
   * skips locked descriptors: a shared lock would hold back the namenode's own election round (design 017).
   */
  static void checkMembership(TransactionContext context, long namenodeId, String what) throws IOException {
    if (context.cluster().namenodes().get(namenodeId, LockMode.NONE).isEmpty()) {
      throw new RetriableException(what + ": namenode " + namenodeId + ", which runs this subtree operation, was "
          + "evicted from the group meanwhile; what it did stays done; retry");
    }
  }

  /**
   * The directory a step locked by id: it cannot have gone or become a file while its subtree is held (every
   * operation that could have done it waits for the flag), so either is a broken invariant.
   */
  static Inode heldDirectory(TransactionContext context, long directoryId, Supplier<FsPath> path)
      throws IOException {
    Inode directory = context.inodeLockedById();
    if (directory == null || !directory.directory()) {
      throw new IOException("invariant: directory " + path.get() + " (inode " + directoryId + ") of a held subtree "
          + (directory == null ? "vanished" : "became a file"));
    }
    return directory;
  }
}
