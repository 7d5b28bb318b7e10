package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import java.util.Objects;

/** One page of a directory's children as a lock request or an operation asks for it: the key of a prefetched page. */
record ChildrenPage(long directoryId, String after, int limit, LockMode mode) {
  // Explicit: the generated ones run through method handles.
  @Override
  public boolean equals(Object other) {
    return other instanceof ChildrenPage page && page.directoryId == directoryId && page.limit == limit
        && page.mode == mode && Objects.equals(page.after, after);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(directoryId) * 31 + Objects.hashCode(after);
  }
}
