package io.canopy.bench.nnthroughput;

import java.io.IOException;
import java.nio.file.Path;

/** A run of NNThroughputBenchmark that did not produce a result: timed out, failed, or printed no figures. */
public final class NnThroughputException extends IOException {
  private final boolean timedOut;
  private final Path log;
  private final long pid;

  NnThroughputException(String message, boolean timedOut, Path log, long pid) {
    super(message);
    this.timedOut = timedOut;
    this.log = log;
    this.pid = pid;
  }

  /** True if the run was killed because it did not finish in time (typically: an RPC failed and NNTB spun). */
  public boolean timedOut() {
    return timedOut;
  }

  /** The run's full output. */
  public Path log() {
    return log;
  }

  /** The pid the benchmark process had (it is gone by the time this is thrown). */
  public long pid() {
    return pid;
  }
}
