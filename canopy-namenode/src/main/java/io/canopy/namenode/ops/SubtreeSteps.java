package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.function.Supplier;

/** What the subtree protocol's steps share (design 017). */
final class SubtreeSteps {
  private SubtreeSteps() {
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
