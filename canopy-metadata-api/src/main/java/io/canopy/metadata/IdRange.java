package io.canopy.metadata;

/** A half-open range [first, first + count) of ids owned by one namenode. */
public record IdRange(long first, int count) {
  public IdRange {
    if (count <= 0) {
      throw new IllegalArgumentException("id range must be non-empty, got count " + count);
    }
  }

  public long endExclusive() {
    return first + count;
  }
}
