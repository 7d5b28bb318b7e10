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
 * @param subtree the subtree section's directory sizes, threads and interval (run once in every mode)
 */
public record BenchMode(String name, int repetitions, int nnThreads, int nnOperations, int nnWarmupRuns,
    int mixThreads,
    int mixWarmupSeconds, int mixSeconds, int namespaceDepth, int profileSeconds, int writeThreads,
    int writeWarmupSeconds, int writeSeconds, SmallFiles smallFiles, Subtree subtree) {

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

  /**
   * The subtree section (issue 16): directories of empty files built through the ClientProtocol, one {@code mv} and
   * one {@code rm -r} of each size timed, then clients in the parent while a directory of {@code disturbanceFiles} is
   * deleted, and a Spotify mix in a namespace of its own. Run once per mode (full mode builds 620,000 files; quick mode measured 300-900 files/s on Canopy and
   * 400-1,800 on HDFS with servers pinned to one core: about 15 minutes); the order of the two systems alternates
   * from size to size.
   *
   * @param timedFiles sizes of the directories whose mv and rm -r are timed (the issue names 10,000 and 100,000)
   * @param disturbanceFiles size of the directory deleted under load (the issue names 200,000)
   * @param builderThreads client threads filling the directories
   * @param workers clients working in the parent of the deleted directory (the issue measured 8)
   * @param warmupMs the workers' warm-up before the undisturbed interval, not recorded
   * @param undisturbedMs the undisturbed interval the delete is compared with
   * @param warmupFiles files of the unrecorded mv and rm -r before the timed ones
   * @param mixThreads Spotify-mix client threads working elsewhere in the namespace beside the workers (few: the
   *     machine measured has 2 cores and the workers already take 8 threads)
   * @param mixDepth depth of the Spotify mix's namespace (16 files and 2 subdirectories per directory), built before
   *     the undisturbed interval, outside the deleted directory's parent
   */
  public record Subtree(List<Integer> timedFiles, int disturbanceFiles, int builderThreads, int workers,
      int warmupMs, int undisturbedMs, int warmupFiles, int mixThreads, int mixDepth) {
    /** Deeper than this the mix's namespace (2^(depth+1) - 1 directories, 16 files each) outgrows the section. */
    static final int MAX_MIX_DEPTH = 8;

    public Subtree {
      timedFiles = List.copyOf(timedFiles);
      com.google.common.base.Preconditions.checkArgument(!timedFiles.isEmpty() && timedFiles.stream()
          .allMatch(files -> files >= 1) && disturbanceFiles >= 1 && builderThreads >= 1 && workers >= 1
          && warmupMs >= 0 && undisturbedMs > 0 && warmupFiles >= 1 && mixThreads >= 1, "subtree sizes, threads, "
          + "the warm-up's files and the undisturbed interval must be positive, the warm-up time not negative");
      com.google.common.base.Preconditions.checkArgument(mixDepth >= 1 && mixDepth <= MAX_MIX_DEPTH,
          "the subtree section's Spotify-mix namespace depth must be within [1, %s], got %s", MAX_MIX_DEPTH,
          mixDepth);
    }
  }

  /**
   * Files of the subtree section's unrecorded warm-up in quick and full mode: past Canopy's default subtree-protocol
   * threshold (5,000) by a batch, so the protocol's code is compiled before the first timed delete that takes it.
   */
  static final int WARMUP_PAST_SUBTREE_THRESHOLD = 6_000;

  public static final BenchMode SMOKE = new BenchMode("smoke", 1, 2, 100, 0, 2, 1, 3, 2, 3, 2, 1, 2,
      new SmallFiles(2, 200, 500, 2, 100, 300), new Subtree(List.of(50, 200), 300, 2, 2, 200, 500, 100, 2, 2));
  public static final BenchMode QUICK = new BenchMode("quick", 1, 8, 500, 0, 8, 2, 6, 4, 5, 16, 2, 6,
      new SmallFiles(16, 800, 2000, 8, 400, 1000),
      new Subtree(List.of(2_000, 10_000), 20_000, 8, 8, 1000, 3000,
          WARMUP_PAST_SUBTREE_THRESHOLD, 4, 4));
  public static final BenchMode FULL = new BenchMode("full", 3, 16, 5000, 1, 16, 10, 30, 7, 30, 16, 10, 30,
      new SmallFiles(16, 1000, 4000, 16, 1000, 3000),
      new Subtree(List.of(10_000, 100_000), 200_000, 8, 8, 2000, 10_000,
          WARMUP_PAST_SUBTREE_THRESHOLD, 4, 5));

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
