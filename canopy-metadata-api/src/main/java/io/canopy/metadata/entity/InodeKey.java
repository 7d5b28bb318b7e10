package io.canopy.metadata.entity;

import java.util.Objects;

/** Primary key of an inode row: the partition it lives in, its parent directory's id and its name. */
public record InodeKey(long partitionId, long parentId, String name) {
  public InodeKey {
    Objects.requireNonNull(name, "name");
  }

  // Explicit: the generated ones run through method handles, and inode keys are the keys of every path's row maps.
  @Override
  public boolean equals(Object other) {
    return other instanceof InodeKey key && key.parentId == parentId && key.partitionId == partitionId
        && key.name.equals(name);
  }

  @Override
  public int hashCode() {
    return (Long.hashCode(partitionId) * 31 + Long.hashCode(parentId)) * 31 + name.hashCode();
  }
}
