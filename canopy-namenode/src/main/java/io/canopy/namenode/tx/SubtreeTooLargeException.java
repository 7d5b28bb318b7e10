package io.canopy.namenode.tx;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;

/**
 * A subtree larger than one transaction may read ({@link NameNodeConfig#SUBTREE_MAX_INODES}): the operation is
 * refused before the namenode holds more of it, and nothing changed. The message names the operation, the path, the
 * limit, the key and what to do. Canopy's own class (HDFS has no such limit): clients see it as an IOException.
 */
public final class SubtreeTooLargeException extends IOException {
  private static final long serialVersionUID = 1L;

  SubtreeTooLargeException(String operation, String path, int limit) {
    super(operation + " " + path + ": the subtree has more than " + limit + " inodes, the most one transaction reads "
        + "(" + NameNodeConfig.SUBTREE_MAX_INODES + "). Work on its subdirectories one at a time (e.g. delete them "
        + "first), or raise " + NameNodeConfig.SUBTREE_MAX_INODES + " on every namenode, with the namenode's heap "
        + "(docs/design/011-limits.md).");
  }
}
