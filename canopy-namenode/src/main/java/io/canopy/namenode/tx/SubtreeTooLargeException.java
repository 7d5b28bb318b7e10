package io.canopy.namenode.tx;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;

/**
 * A subtree larger than the namenode holds for one operation ({@link NameNodeConfig#SUBTREE_MAX_ROWS}): the operation
 * is refused before the namenode holds more of it, and nothing changed. The message names the operation, the path,
 * the limit, the key and what to do. Canopy's own class (HDFS has no such limit): clients see it as an IOException.
 */
public final class SubtreeTooLargeException extends IOException {
  private static final long serialVersionUID = 1L;

  public SubtreeTooLargeException(String operation, String path, long limit) {
    super(operation + " " + path + ": the subtree needs more than " + limit + " rows (its inodes, and for a delete "
        + "the blocks and replicas of its files), the most the namenode holds for subtrees ("
        + NameNodeConfig.SUBTREE_MAX_ROWS + "). Work on its subdirectories one at a time (e.g. delete them first), "
        + "or raise " + NameNodeConfig.SUBTREE_MAX_ROWS + " on every namenode together with its heap (its default is "
        + "one row per " + NameNodeConfig.SUBTREE_HEAP_BYTES_PER_ROW + " bytes of heap, docs/design/011-limits.md).");
  }
}
