package io.canopy.bench;

import io.canopy.bench.SubtreeComparison.Clients;
import io.canopy.bench.SubtreeComparison.Disturbance;
import io.canopy.bench.SubtreeComparison.Outcome;
import io.canopy.bench.mix.CallWindows.WindowResult;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report's subtree section, written from one run's {@link Outcome}: mv and rm -r times per size and system with
 * the ratio HDFS / Canopy, then the clients in the parent and the Spotify mix elsewhere undisturbed and during the big
 * delete, the throughput each kept, and issue 16's target met or missed.
 */
final class SubtreeSection {
  /** The directory size issue 16's target names. */
  static final int TARGET_FILES = 200_000;
  private static final List<String> SYSTEMS = List.of("Canopy", "HDFS");
  private static final String PARENT = "in the parent";
  private static final String MIX = "Spotify mix elsewhere";

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
    md.append(String.format(Locale.ROOT, "### Clients in the parent and a Spotify mix elsewhere during the rm -r of "
        + "%,d files%n%n", settings.disturbanceFiles()));
    md.append(String.format(Locale.ROOT, "%d client threads, each with its own client and connection, repeat "
        + "create (empty file), getFileStatus and delete of their own files in the parent of the directory being "
        + "deleted; every call counts as an operation. Beside them, elsewhere in the namespace, %d threads run the "
        + "Spotify mix (the mix section's operations and weights) on a tree of their own (depth %d, 16 files and 2 "
        + "subdirectories per directory), built before they start; every mix operation counts as one. After %.1f s "
        + "of warm-up both are measured undisturbed for %.1f s, then from the start of the recursive delete to its "
        + "end. Throughput counts the calls completed inside the interval; the latencies count every call that "
        + "overlapped it, so a call blocked for the whole delete shows with its whole wait. Kept = throughput "
        + "during the delete / undisturbed; a delete of a few milliseconds leaves few calls in its interval, so its "
        + "kept share is coarse.%n%n", outcome.workers(), settings.mixThreads(), settings.mixDepth(),
        settings.warmupMs() / 1000.0, settings.undisturbedMs() / 1000.0));
    md.append("| system | clients | interval | s | operations | ops/s | p50 ms | p99 ms | max ms | failed | kept |\n"
        + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String system : SYSTEMS) {
      Disturbance disturbance = outcome.disturbance(system);
      if (disturbance != null) {
        clients(md, system, PARENT, disturbance.parent());
        clients(md, system, MIX, disturbance.mix());
      }
    }
    md.append("\n| | Canopy | HDFS |\n|---|---:|---:|\n");
    Disturbance canopy = outcome.disturbance("Canopy");
    Disturbance hdfs = outcome.disturbance("HDFS");
    md.append(String.format(Locale.ROOT, "| rm -r of %,d files, s | %s | %s |%n", settings.disturbanceFiles(),
        canopy == null ? "" : seconds(canopy.deleteSeconds()), hdfs == null ? "" : seconds(hdfs.deleteSeconds())));
    md.append(String.format(Locale.ROOT, "| throughput kept in the parent | %s | %s |%n",
        percent(canopy, Disturbance::parent), percent(hdfs, Disturbance::parent)));
    md.append(String.format(Locale.ROOT, "| throughput kept by the %s | %s | %s |%n", MIX,
        percent(canopy, Disturbance::mix), percent(hdfs, Disturbance::mix)));
    md.append(String.format(Locale.ROOT, "| server CPU over the delete, s | %s | %s |%n%n", cpu(canopy), cpu(hdfs)));
    md.append(String.format(Locale.ROOT, "Target (issue 16): Canopy keeps >= %.0f%% of its clients' undisturbed "
        + "throughput during the delete: **%s** (kept %s in the parent; the %s kept %s on Canopy, %s on HDFS)",
        100 * SubtreeComparison.TARGET_KEPT, outcome.targetMet() ? "met" : "missed",
        percent(canopy, Disturbance::parent), MIX, percent(canopy, Disturbance::mix),
        percent(hdfs, Disturbance::mix)));
    if (settings.disturbanceFiles() != TARGET_FILES) {
      md.append(String.format(Locale.ROOT, "; the issue sets it for %,d files, this mode deletes %,d",
          TARGET_FILES, settings.disturbanceFiles()));
    }
    md.append(".\n\n");
  }

  /** The undisturbed and the during-the-delete rows of one group of clients, the kept share on the second. */
  private static void clients(StringBuilder md, String system, String who, Clients clients) {
    window(md, system, who, "undisturbed", clients.undisturbed(), "");
    window(md, system, who, "during the delete", clients.during(), percent(clients));
  }

  private static void window(StringBuilder md, String system, String who, String interval, WindowResult window,
      String kept) {
    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %d | %.0f | %.2f | %.2f | %.2f | %d | %s |%n",
        system, who, interval, window.seconds(), window.operations(), window.operationsPerSecond(),
        window.latency().p50Ms(), window.latency().p99Ms(), window.latency().maxMs(), window.failures(), kept));
  }

  private static String seconds(double seconds) {
    return Double.isNaN(seconds) ? "failed" : String.format(Locale.ROOT, "%.3f", seconds);
  }

  private static String ratio(double ratio) {
    return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f", ratio);
  }

  private static String percent(Disturbance disturbance, Function<Disturbance, Clients> which) {
    return disturbance == null ? "n/a" : percent(which.apply(disturbance));
  }

  private static String percent(Clients clients) {
    return Double.isNaN(clients.kept()) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * clients.kept());
  }

  private static String cpu(Disturbance disturbance) {
    return disturbance == null ? "" : String.format(Locale.ROOT, "%.2f", disturbance.deleteCpu().totalSeconds());
  }
}
