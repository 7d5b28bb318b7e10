package io.canopy.namenode.tx;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import java.util.List;

/**
 * A path resolved against the namespace inside a transaction: {@code inodes.get(0)} is the root, then one inode per
 * existing component, stopping at the first missing one or at a file with components left after it.
 */
public final class ResolvedPath {
  private final FsPath path;
  private final Inode[] inodes;
  private int existing;

  ResolvedPath(FsPath path) {
    this.path = path;
    this.inodes = new Inode[path.depth() + 1];
  }

  void set(int depth, Inode inode) {
    inodes[depth] = inode;
    existing = 0;
    while (existing < inodes.length && inodes[existing] != null) {
      existing++;
    }
  }

  public FsPath path() {
    return path;
  }

  /** Number of leading components (root included) that exist. */
  public int existingCount() {
    return existing;
  }

  public boolean exists() {
    return existing == inodes.length;
  }

  /** The target inode, or null when it does not exist. */
  public Inode target() {
    return exists() ? inodes[inodes.length - 1] : null;
  }

  /** The parent directory's inode, or null when the parent does not exist (or for the root). */
  public Inode parent() {
    int parentDepth = inodes.length - 2;
    return parentDepth >= 0 && parentDepth < existing ? inodes[parentDepth] : null;
  }

  /** The deepest existing inode. */
  public Inode deepestExisting() {
    return inodes[existing - 1];
  }

  public Inode at(int depth) {
    return depth < existing ? inodes[depth] : null;
  }

  /** The path of the deepest existing inode. */
  public FsPath deepestExistingPath() {
    return path.ancestor(existing - 1);
  }

  /**
   * HDFS's effective storage policy at {@code depth}: the policy of the deepest existing inode at or above it that
   * has one set (a file's own, else the nearest ancestor directory's), or 0 (unspecified: the default policy).
   */
  public byte effectiveStoragePolicy(int depth) {
    for (int i = Math.min(depth, existing - 1); i >= 0; i--) {
      if (inodes[i].storagePolicy() != 0) {
        return inodes[i].storagePolicy();
      }
    }
    return 0;
  }

  /**
   * The existing inodes above the target's depth, root first: the directories whose quotas a change of the target
   * (or, when parents are missing, of what is created under the deepest existing one) is charged to.
   */
  public List<Inode> above() {
    return List.copyOf(java.util.Arrays.asList(inodes).subList(0, Math.min(existing, inodes.length - 1)));
  }

  List<Inode> existingInodes() {
    return List.of(inodes).subList(0, existing);
  }
}
