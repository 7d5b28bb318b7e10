package io.canopy.namenode.fs;

import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import java.nio.charset.StandardCharsets;

/**
 * Where an inode row lives (docs/references.md [Design] s.4). Normally with its siblings, in the partition named by the
 * parent's id, so a directory listing is a partition-scoped scan. The children of a directory created with
 * {@link Inode#spreadsChildren()} (the top levels of the tree, fixed at its creation) get a pseudo-random partition id
 * instead, a hash of the parent id and name, so that the root's children and grandchildren do not all land in one shard
 * (docs/references.md [HopsFS-1M] s.III-A, "adaptive pseudo-random partitioning"). The root lives in partition 0 under
 * parent 0 with the empty name. Keys are computed only here.
 */
public final class InodePartitioning {
  public static final long ROOT_ID = 16385L;
  public static final long ROOT_PARENT_ID = 0L;
  public static final String ROOT_NAME = "";
  public static final InodeKey ROOT_KEY = new InodeKey(ROOT_PARENT_ID, ROOT_PARENT_ID, ROOT_NAME);
  /** Directories at a depth below this spread their children over partitions (root and its children). */
  public static final int DEFAULT_SPREAD_LEVELS = 2;

  private InodePartitioning() {
  }

  /** The partition of a child named {@code name} of {@code parent}. */
  public static long partitionOf(Inode parent, String name) {
    return partitionOf(parent.id(), parent.spreadsChildren(), name);
  }

  /** The partition of a child named {@code name} of directory {@code parentId}. */
  public static long partitionOf(long parentId, boolean parentSpreads, String name) {
    return parentSpreads ? spreadPartition(parentId, name) : parentId;
  }

  public static InodeKey keyOf(Inode parent, String name) {
    return new InodeKey(partitionOf(parent, name), parent.id(), name);
  }

  public static InodeKey keyOf(long parentId, boolean parentSpreads, String name) {
    return new InodeKey(partitionOf(parentId, parentSpreads, name), parentId, name);
  }

  /**
   * A stable pseudo-random partition id (FNV-1a over the parent id and the name's UTF-8 bytes, then a final mix):
   * positive, and never equal to the parent id, which is what tells spread rows apart from the others.
   */
  static long spreadPartition(long parentId, String name) {
    long hash = 0xcbf29ce484222325L;
    for (int shift = 0; shift < 64; shift += 8) {
      hash = (hash ^ ((parentId >>> shift) & 0xff)) * 0x100000001b3L;
    }
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    hash ^= hash >>> 33;
    hash *= 0xff51afd7ed558ccdL;
    hash ^= hash >>> 33;
    long partition = hash & Long.MAX_VALUE;
    return partition == parentId ? partition ^ 1 : partition;
  }

  /** Whether a directory created at {@code depth} (root = 0) spreads its children, with {@code spreadLevels}. */
  public static boolean spreads(int depth, int spreadLevels) {
    return depth < spreadLevels;
  }
}
