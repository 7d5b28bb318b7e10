package io.canopy.bench.nnthroughput;

import io.canopy.bench.ServerCpu;
import java.util.Objects;

/**
 * The figures NNThroughputBenchmark prints for one operation: how many it executed, the wall-clock time of the
 * whole run, operations per second over that time, and the mean time of one call as its threads saw it (NNTB
 * reports whole milliseconds); and the servers' CPU time over that timed phase ({@link ServerCpu.Usage#NONE} when
 * the run was not asked to measure it, see {@link TimedPhaseCpu}).
 */
public record NnThroughputResult(String op, int threads, long operations, long elapsedMs, double opsPerSecond,
    double averageTimeMs, ServerCpu.Usage serverCpu) {
  public NnThroughputResult {
    Objects.requireNonNull(serverCpu, "serverCpu");
  }
}
