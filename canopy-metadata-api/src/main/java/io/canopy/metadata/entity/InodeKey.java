package io.canopy.metadata.entity;

import java.util.Objects;

/** Primary key of an inode row: the partition it lives in, its parent directory's id and its name. */
public record InodeKey(long partitionId, long parentId, String name) {
  public InodeKey {
    Objects.requireNonNull(name, "name");
  }
}
