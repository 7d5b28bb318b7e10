package io.canopy.bench.nnthroughput;

/**
 * The figures NNThroughputBenchmark prints for one operation: how many it executed, the wall-clock time of the
 * whole run, operations per second over that time, and the mean time of one call as its threads saw it (NNTB
 * reports whole milliseconds).
 */
public record NnThroughputResult(String op, int threads, long operations, long elapsedMs, double opsPerSecond,
    double averageTimeMs) {
}
