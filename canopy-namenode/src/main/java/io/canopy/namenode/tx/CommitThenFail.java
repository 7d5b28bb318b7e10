package io.canopy.namenode.tx;

import java.io.IOException;
import java.util.Objects;

/**
 * Thrown by an operation body whose work so far must stay although the call fails: HDFS's mkdirs -p (and create or
 * createSymlink with missing parents) keeps the directories it made before a quota or a file-system limit stopped
 * it. {@link TransactionRunner} commits the transaction as it stands (without a retry-cache entry), then throws
 * {@link #failure()} to the caller. The body must throw it before writing anything for the step that failed.
 */
public final class CommitThenFail extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient IOException failure;

  public CommitThenFail(IOException failure) {
    super(Objects.requireNonNull(failure, "failure").getMessage(), failure, false, false);
    this.failure = failure;
  }

  /** What the caller gets once the work before it has committed. */
  public IOException failure() {
    return failure;
  }
}
