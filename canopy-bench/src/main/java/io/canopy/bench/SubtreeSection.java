package io.canopy.bench;

import io.canopy.bench.SubtreeComparison.Disturbance;
import io.canopy.bench.SubtreeComparison.Outcome;
import io.canopy.bench.mix.ParentDirectoryLoad.WindowResult;
import java.util.List;
import java.util.Locale;

/**
 * The report's subtree section, written from one run's {@link Outcome}: mv and rm -r times per size and system with
 * the ratio HDFS / Canopy, then the clients in the parent undisturbed and during the big delete, the throughput they
 * kept, and issue 16's target met or missed.
 */
final class SubtreeSection {
  /** The directory size issue 16's target names. */
  static final int TARGET_FILES = 200_000;
  private static final List<String> SYSTEMS = List.of("Canopy", "HDFS");

  private SubtreeSection() {
  }

  static void write(StringBuilder md, Outcome outcome) {
    BenchMode.Subtree settings = outcome.settings();
    md.append("## Subtree operations: mv and rm -r of large directories\n\n");
    md.append(String.format(Locale.ROOT, "Per size and system, a directory of empty files is filled through the "
        + "ClientProtocol (create, then complete with no block, as NNThroughputBenchmark creates files; %d client "
        + "threads), moved to another parent with one `rename` call, then removed with one recursive `delete` call; "
        + "both calls are timed from the stock client (`hadoop fs -mv` and `hadoop fs -rm -r -skipTrash` make the "
        + "same single call). Each system first moves and removes a directory of %d files, not recorded (a fresh JVM's first "
        + "calls are far slower). One run per size; the order of the two systems alternates from size to size.%n%n",
        settings.builderThreads(), settings.warmupFiles()));
    md.append("| operation | files | Canopy s | HDFS s | HDFS / Canopy |\n|---|---:|---:|---:|---:|\n");
    for (String operation : List.of(SubtreeComparison.MV, SubtreeComparison.RM)) {
      for (int files : settings.timedFiles()) {
        md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s |%n", operation, files,
            seconds(outcome.seconds(operation, files, "Canopy")), seconds(outcome.seconds(operation, files, "HDFS")),
            ratio(outcome.ratio(operation, files))));
      }
    }
    md.append('\n');
    disturbance(md, outcome);
    md.append("Failed operations in the whole section: ").append(outcome.failures()).append(".\n");
    for (String message : outcome.firstFailures()) {
      md.append("- ").append(message).append('\n');
    }
    md.append('\n');
  }

  private static void disturbance(StringBuilder md, Outcome outcome) {
    BenchMode.Subtree settings = outcome.settings();
    md.append(String.format(Locale.ROOT, "### Clients in the parent during the rm -r of %,d files%n%n",
        settings.disturbanceFiles()));
    md.append(String.format(Locale.ROOT, "%d client threads, each with its own client and connection, repeat "
        + "create (empty file), getFileStatus and delete of their own files in the parent of the directory being "
        + "deleted; every call counts as an operation. After %.1f s of warm-up they are measured undisturbed for "
        + "%.1f s, then from the start of the recursive delete to its end. Throughput counts the calls completed "
        + "inside the interval; the latencies count every call that overlapped it, so a call blocked for the "
        + "whole delete shows with its whole wait. Kept = throughput during the delete / undisturbed; a delete of a few milliseconds leaves few "
        + "calls in its interval, so its kept share is coarse.%n%n",
        outcome.workers(), settings.warmupMs() / 1000.0, settings.undisturbedMs() / 1000.0));
    md.append("| system | interval | s | operations | ops/s | p50 ms | p99 ms | max ms | failed |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String system : SYSTEMS) {
      Disturbance disturbance = outcome.disturbance(system);
      if (disturbance != null) {
        window(md, system, "undisturbed", disturbance.undisturbed());
        window(md, system, "during the delete", disturbance.during());
      }
    }
    md.append("\n| | Canopy | HDFS |\n|---|---:|---:|\n");
    Disturbance canopy = outcome.disturbance("Canopy");
    Disturbance hdfs = outcome.disturbance("HDFS");
    md.append(String.format(Locale.ROOT, "| rm -r of %,d files, s | %s | %s |%n", settings.disturbanceFiles(),
        canopy == null ? "" : seconds(canopy.deleteSeconds()), hdfs == null ? "" : seconds(hdfs.deleteSeconds())));
    md.append(String.format(Locale.ROOT, "| throughput kept in the parent | %s | %s |%n", percent(canopy),
        percent(hdfs)));
    md.append(String.format(Locale.ROOT, "| server CPU over the delete, s | %s | %s |%n%n", cpu(canopy), cpu(hdfs)));
    md.append(String.format(Locale.ROOT, "Target (issue 16): Canopy keeps >= %.0f%% of its clients' undisturbed "
        + "throughput during the delete: **%s** (kept %s)", 100 * SubtreeComparison.TARGET_KEPT,
        outcome.targetMet() ? "met" : "missed", percent(canopy)));
    if (settings.disturbanceFiles() != TARGET_FILES) {
      md.append(String.format(Locale.ROOT, "; the issue sets it for %,d files, this mode deletes %,d",
          TARGET_FILES, settings.disturbanceFiles()));
    }
    md.append(".\n\n");
  }

  private static void window(StringBuilder md, String system, String interval, WindowResult window) {
    md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %d | %.0f | %.2f | %.2f | %.2f | %d |%n", system,
        interval, window.seconds(), window.operations(), window.operationsPerSecond(), window.latency().p50Ms(),
        window.latency().p99Ms(), window.latency().maxMs(), window.failures()));
  }

  private static String seconds(double seconds) {
    return Double.isNaN(seconds) ? "failed" : String.format(Locale.ROOT, "%.3f", seconds);
  }

  private static String ratio(double ratio) {
    return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f", ratio);
  }

  private static String percent(Disturbance disturbance) {
    return disturbance == null || Double.isNaN(disturbance.kept()) ? "n/a"
        : String.format(Locale.ROOT, "%.0f%%", 100 * disturbance.kept());
  }

  private static String cpu(Disturbance disturbance) {
    return disturbance == null ? "" : String.format(Locale.ROOT, "%.2f", disturbance.deleteCpu().totalSeconds());
  }
}
