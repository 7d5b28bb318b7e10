package io.canopy.bench;

import java.util.List;

/**
 * How much to measure. {@code SMOKE} only proves the harness works (CI); {@code QUICK} is for development (under
 * a few minutes for everything, the new rows included); {@code FULL} is what docs/benchmarks.md reports.
 *
 * @param repetitions times each measurement is repeated (median and spread are reported)
 * @param nnThreads NNThroughputBenchmark client threads
 * @param nnOperations NNThroughputBenchmark operations (files or directories) per run
 * @param nnWarmupRuns unrecorded NNThroughputBenchmark runs of every operation on both systems before the recorded
 *     ones, so that both are measured with their JVMs' code compiled (the first run of a fresh JVM is far slower)
 * @param mixThreads Spotify-mix client threads
 * @param mixWarmupSeconds mix warm-up, not recorded
 * @param mixSeconds recorded mix duration per repetition
 * @param namespaceDepth depth of the pre-built mix namespace (16 files and 2 subdirectories per directory)
 * @param profileSeconds length of the separate profiled Canopy mix run
 * @param writeThreads client threads of create + write 4 KB + close
 * @param writeWarmupSeconds its warm-up, not recorded
 * @param writeSeconds its recorded duration per repetition
 */
public record BenchMode(String name, int repetitions, int nnThreads, int nnOperations, int nnWarmupRuns,
    int mixThreads,
    int mixWarmupSeconds, int mixSeconds, int namespaceDepth, int profileSeconds, int writeThreads,
    int writeWarmupSeconds, int writeSeconds) {

  public static final BenchMode SMOKE = new BenchMode("smoke", 1, 2, 100, 0, 2, 1, 3, 2, 3, 2, 1, 2);
  public static final BenchMode QUICK = new BenchMode("quick", 1, 8, 500, 0, 8, 2, 6, 4, 5, 16, 2, 6);
  public static final BenchMode FULL = new BenchMode("full", 3, 16, 5000, 1, 16, 10, 30, 7, 30, 16, 10, 30);

  public static final List<BenchMode> ALL = List.of(SMOKE, QUICK, FULL);

  /**
   * Indexes 0..count-1 in the order one repetition runs them: forwards in even repetitions, backwards in odd ones,
   * so that drift of the machine does not favour the system measured first.
   */
  public static List<Integer> alternatingOrder(int repetition, int count) {
    List<Integer> order = new java.util.ArrayList<>();
    for (int index = 0; index < count; index++) {
      order.add(repetition % 2 == 0 ? index : count - 1 - index);
    }
    return order;
  }

  public static BenchMode named(String name) {
    for (BenchMode mode : ALL) {
      if (mode.name.equals(name)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("unknown benchmark mode '" + name + "': one of smoke, quick, full");
  }
}
