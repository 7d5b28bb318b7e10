package io.canopy.bench.mix;

import java.util.Locale;

/**
 * The shape of the tree the mix works on: a complete tree under a base directory. The base directory is level 0;
 * every directory on levels 0..depth-1 has {@code subdirectoriesPerDirectory} subdirectories; every directory on
 * levels 0..depth (the base included) holds {@code filesPerDirectory} files of 0..maxFileBytes bytes.
 *
 * <p>With the defaults (depth 7, 16 files, 2 subdirectories) that is 2^8 - 1 = 255 directories (the base
 * included) and 255 * 16 = 4080 files; files sit 1..8 path components below the base (docs/references.md [HopsFS-1M]
 * s.V-C reports an average file depth of 7 at Spotify).
 *
 * @param depth levels of subdirectories below the base directory (0 = the base directory alone)
 * @param filesPerDirectory files in every directory
 * @param subdirectoriesPerDirectory subdirectories of every directory above the last level
 * @param maxFileBytes largest file size; sizes are uniform in 0..maxFileBytes
 * @param replication replication of the files, or 0 for the client's default ({@code dfs.replication})
 */
public record NamespaceShape(int depth, int filesPerDirectory, int subdirectoriesPerDirectory, int maxFileBytes,
    short replication) {
  public static final int DEFAULT_DEPTH = 7;
  public static final int DEFAULT_FILES_PER_DIRECTORY = 16;
  public static final int DEFAULT_SUBDIRECTORIES_PER_DIRECTORY = 2;
  public static final int DEFAULT_MAX_FILE_BYTES = 100;
  /** Upper bound on the directories or files of a shape, so a typo cannot ask for billions of RPCs. */
  public static final long MAX_ENTRIES = 50_000_000L;

  public NamespaceShape {
    requireAtLeast("depth", depth, 0);
    requireAtLeast("filesPerDirectory", filesPerDirectory, 0);
    requireAtLeast("subdirectoriesPerDirectory", subdirectoriesPerDirectory, 0);
    requireAtLeast("maxFileBytes", maxFileBytes, 0);
    requireAtLeast("replication", replication, 0);
    long directories = countDirectories(depth, subdirectoriesPerDirectory);
    if (directories > MAX_ENTRIES || directories * filesPerDirectory > MAX_ENTRIES) {
      throw new IllegalArgumentException("namespace of depth " + depth + " with " + subdirectoriesPerDirectory
          + " subdirectories and " + filesPerDirectory + " files per directory exceeds " + MAX_ENTRIES
          + " entries; choose a smaller depth");
    }
  }

  /** 16 files and 2 subdirectories per directory, depth 7, files up to 100 bytes, default replication. */
  public static NamespaceShape defaults() {
    return new NamespaceShape(DEFAULT_DEPTH, DEFAULT_FILES_PER_DIRECTORY, DEFAULT_SUBDIRECTORIES_PER_DIRECTORY,
        DEFAULT_MAX_FILE_BYTES, (short) 0);
  }

  public NamespaceShape withDepth(int newDepth) {
    return new NamespaceShape(newDepth, filesPerDirectory, subdirectoriesPerDirectory, maxFileBytes, replication);
  }

  public NamespaceShape withFilesPerDirectory(int files) {
    return new NamespaceShape(depth, files, subdirectoriesPerDirectory, maxFileBytes, replication);
  }

  public NamespaceShape withSubdirectoriesPerDirectory(int subdirectories) {
    return new NamespaceShape(depth, filesPerDirectory, subdirectories, maxFileBytes, replication);
  }

  public NamespaceShape withMaxFileBytes(int bytes) {
    return new NamespaceShape(depth, filesPerDirectory, subdirectoriesPerDirectory, bytes, replication);
  }

  public NamespaceShape withReplication(short newReplication) {
    return new NamespaceShape(depth, filesPerDirectory, subdirectoriesPerDirectory, maxFileBytes, newReplication);
  }

  /** Directories of the tree, the base directory included: sum of s^level for level 0..depth. */
  public long directoryCount() {
    return countDirectories(depth, subdirectoriesPerDirectory);
  }

  /** Files of the tree: directoryCount() * filesPerDirectory. */
  public long fileCount() {
    return directoryCount() * filesPerDirectory;
  }

  /** Directories on one level (level 0 is the base directory). */
  public long directoriesOnLevel(int level) {
    long count = 1;
    for (int i = 0; i < level; i++) {
      count *= subdirectoriesPerDirectory;
    }
    return count;
  }

  /** One line for reports and for the marker that says a namespace is complete. */
  public String describe() {
    return String.format(Locale.ROOT,
        "depth %d, %d files and %d subdirectories per directory, files of 0..%d bytes, replication %s: "
            + "%d directories, %d files",
        depth, filesPerDirectory, subdirectoriesPerDirectory, maxFileBytes,
        replication == 0 ? "client default" : Short.toString(replication), directoryCount(), fileCount());
  }

  private static long countDirectories(int depth, int subdirectories) {
    long total = 0;
    long onLevel = 1;
    for (int level = 0; level <= depth; level++) {
      total += onLevel;
      if (total > MAX_ENTRIES) {
        return total;
      }
      onLevel *= subdirectories;
    }
    return total;
  }

  private static void requireAtLeast(String name, int value, int minimum) {
    if (value < minimum) {
      throw new IllegalArgumentException(name + " must be at least " + minimum + ", got " + value);
    }
  }
}
