package io.canopy.it.model;

import java.io.Closeable;

/** A file system the model-based test drives: the model itself, or a real one under a fresh directory. */
public interface FsUnderTest extends Closeable {
  /** Runs one operation; every outcome, exceptions included, comes back as an {@link Outcome}. */
  Outcome apply(Op op);

  @Override
  default void close() {
  }
}
