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
 * @param smallFiles the small-files section's threads and durations (repeated {@code repetitions} times too)
 */
public record BenchMode(String name, int repetitions, int nnThreads, int nnOperations, int nnWarmupRuns,
    int mixThreads,
    int mixWarmupSeconds, int mixSeconds, int namespaceDepth, int profileSeconds, int writeThreads,
    int writeWarmupSeconds, int writeSeconds, SmallFiles smallFiles) {

  /**
   * The small-files section (issue 15): every phase (the writes, then the reads, of one size and one client) has
   * its own warm-up and recorded part. Quick mode keeps the whole section near 2.5 minutes on 2 cores (4 sizes x 3
   * clients x 2 phases x 2.8 s, then 11 sizes x 2 systems x 2 phases x 1.4 s, plus connecting and deleting);
   * full mode near 10 minutes.
   *
   * @param threads client threads of the per-size table (the issue asks for 16)
   * @param warmupMs each phase's warm-up, not recorded
   * @param measuredMs each phase's recorded duration
   * @param crossoverThreads client threads of the crossover curve (1 KB to 1 MB)
   * @param crossoverWarmupMs its phases' warm-up
   * @param crossoverMeasuredMs its phases' recorded duration
   */
  public record SmallFiles(int threads, int warmupMs, int measuredMs, int crossoverThreads, int crossoverWarmupMs,
      int crossoverMeasuredMs) {
    public SmallFiles {
      com.google.common.base.Preconditions.checkArgument(threads >= 1 && crossoverThreads >= 1
          && warmupMs >= 0 && crossoverWarmupMs >= 0 && measuredMs > 0 && crossoverMeasuredMs > 0,
          "small-files threads and recorded durations must be positive, warm-ups not negative");
    }
  }

  public static final BenchMode SMOKE = new BenchMode("smoke", 1, 2, 100, 0, 2, 1, 3, 2, 3, 2, 1, 2,
      new SmallFiles(2, 200, 500, 2, 100, 300));
  public static final BenchMode QUICK = new BenchMode("quick", 1, 8, 500, 0, 8, 2, 6, 4, 5, 16, 2, 6,
      new SmallFiles(16, 800, 2000, 8, 400, 1000));
  public static final BenchMode FULL = new BenchMode("full", 3, 16, 5000, 1, 16, 10, 30, 7, 30, 16, 10, 30,
      new SmallFiles(16, 1000, 4000, 16, 1000, 3000));

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
