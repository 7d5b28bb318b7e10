package io.canopy.namenode.fs;

import io.canopy.metadata.entity.InodeKey;

/**
 * Where an inode row lives (DESIGN s.4): with its siblings, in the partition named by the parent's id, so a
 * directory listing is a partition-scoped scan. The root lives in partition 0 under parent 0 with the empty name.
 * (Pseudo-random partitions for the top levels arrive with the hint-cache work; the key is computed only here.)
 */
public final class InodePartitioning {
  public static final long ROOT_ID = 16385L;
  public static final long ROOT_PARENT_ID = 0L;
  public static final String ROOT_NAME = "";
  public static final InodeKey ROOT_KEY = new InodeKey(partitionOf(ROOT_PARENT_ID, ROOT_NAME), ROOT_PARENT_ID,
      ROOT_NAME);

  private InodePartitioning() {
  }

  public static long partitionOf(long parentId, String name) {
    return parentId;
  }

  /** The partition holding every child of a directory. */
  public static long childrenPartitionOf(long directoryId) {
    return directoryId;
  }

  public static InodeKey keyOf(long parentId, String name) {
    return new InodeKey(partitionOf(parentId, name), parentId, name);
  }
}
