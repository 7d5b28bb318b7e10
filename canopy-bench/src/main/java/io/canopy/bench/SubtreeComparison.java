package io.canopy.bench;

import io.canopy.bench.mix.FlatDirectoryBuilder;
import io.canopy.bench.mix.ParentDirectoryLoad;
import io.canopy.bench.mix.ParentDirectoryLoad.WindowResult;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Subtree operations side by side (issue 16): per size, a directory of empty files is built through the
 * ClientProtocol, moved to another parent with one {@code rename} and removed with one recursive {@code delete}, each
 * timed from the client; then clients work in the parent of a directory of {@code disturbanceFiles} files, first
 * undisturbed for a fixed interval, then while that directory is deleted, and the throughput they keep is compared.
 * The order of the two systems alternates from size to size. Everything runs through the stock HDFS client.
 */
final class SubtreeComparison {
  /** Each system works under its own directory here, deleted after each step (untimed). */
  static final String BASE = "/canopy-bench/subtree";
  /** Issue 16's target: clients in the parent keep at least this share of their throughput on Canopy. */
  static final double TARGET_KEPT = 0.5;
  static final String MV = "mv";
  static final String RM = "rm -r";

  /** One timed call on one system: seconds, NaN when it failed. */
  record Timing(String operation, int files, String system, double seconds) {
  }

  /**
   * The clients in the parent, undisturbed and during the delete of {@code files} files on one system.
   *
   * @param deleteSeconds the delete, timed from its client
   * @param deleteCpu the servers' CPU time over the delete
   */
  record Disturbance(String system, int files, double deleteSeconds, WindowResult undisturbed, WindowResult during,
      ServerCpu.Usage deleteCpu) {
    /** During / undisturbed throughput; NaN without undisturbed throughput. */
    double kept() {
      return undisturbed.operationsPerSecond() > 0 ? during.operationsPerSecond() / undisturbed.operationsPerSecond()
          : Double.NaN;
    }

    long failures() {
      return undisturbed.failures() + during.failures();
    }
  }

  /** Everything the section measured, with the failed calls (a timed call that failed has a NaN time). */
  record Outcome(BenchMode.Subtree settings, int workers, List<Timing> timings, List<Disturbance> disturbances,
      long failures, List<String> firstFailures) {
    Outcome {
      timings = List.copyOf(timings);
      disturbances = List.copyOf(disturbances);
      firstFailures = List.copyOf(firstFailures);
    }

    /** Seconds of {@code operation} on {@code files} files on {@code system}; NaN when not measured or failed. */
    double seconds(String operation, int files, String system) {
      for (Timing timing : timings) {
        if (timing.operation().equals(operation) && timing.files() == files && timing.system().equals(system)) {
          return timing.seconds();
        }
      }
      return Double.NaN;
    }

    /** HDFS time / Canopy time: above 1 Canopy is faster. */
    double ratio(String operation, int files) {
      return seconds(operation, files, "HDFS") / seconds(operation, files, "Canopy");
    }

    Disturbance disturbance(String system) {
      for (Disturbance disturbance : disturbances) {
        if (disturbance.system().equals(system)) {
          return disturbance;
        }
      }
      return null;
    }

    /**
     * Whether Canopy's clients in the parent kept at least {@link #TARGET_KEPT} during a delete that succeeded (false
     * when not measured, or when the delete failed: its short window says nothing).
     */
    boolean targetMet() {
      Disturbance canopy = disturbance("Canopy");
      return canopy != null && !Double.isNaN(canopy.deleteSeconds()) && canopy.kept() >= TARGET_KEPT;
    }
  }

  private SubtreeComparison() {
  }

  static Outcome run(BenchMode mode, SystemUnderTest canopy, SystemUnderTest hdfs, Configuration base, long seed,
      PrintWriter progress) throws IOException {
    BenchMode.Subtree settings = mode.subtree();
    // the stock client, named: a Canopy client configuration on the class path must not change what is measured
    Configuration conf = new Configuration(base);
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    List<SystemUnderTest> systems = List.of(canopy, hdfs);
    Failures failures = new Failures();
    for (SystemUnderTest system : systems) {
      progress.println("  warm-up, not recorded:");
      moveThenDelete(system, conf, settings, "warm-up", settings.warmupFiles(), failures, progress);
    }
    List<Timing> timings = new ArrayList<>();
    for (int size = 0; size < settings.timedFiles().size(); size++) {
      int files = settings.timedFiles().get(size);
      for (int index : BenchMode.alternatingOrder(size, systems.size())) {
        timings.addAll(moveThenDelete(systems.get(index), conf, settings, "size-" + files, files, failures,
            progress));
      }
    }
    List<Disturbance> disturbances = new ArrayList<>();
    for (int index : BenchMode.alternatingOrder(settings.timedFiles().size(), systems.size())) {
      disturbances.add(disturb(systems.get(index), conf, settings, seed, failures, progress));
    }
    return new Outcome(settings, settings.workers(), timings, disturbances, failures.count, failures.messages);
  }

  /** Failed calls of the section and the first messages. */
  private static final class Failures {
    private static final int MAX_MESSAGES = 10;
    long count;
    final List<String> messages = new ArrayList<>();

    void add(String message, PrintWriter progress) {
      count++;
      if (messages.size() < MAX_MESSAGES) {
        messages.add(message);
      }
      progress.println("  FAILED: " + message);
      progress.flush();
    }

    /** {@code count} failures of which {@code messages} are the first, each prefixed. */
    void addAll(long count, String prefix, List<String> messages, PrintWriter progress) {
      for (String message : messages) {
        add(prefix + message, progress);
      }
      this.count += count - messages.size();
    }
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** Builds a directory of {@code files} files under {@code run}, times its mv to another parent, then its rm -r. */
  private static List<Timing> moveThenDelete(SystemUnderTest system, Configuration conf, BenchMode.Subtree settings,
      String run, int files, Failures failures, PrintWriter progress) throws IOException {
    Path root = new Path(BASE, system.name().toLowerCase(Locale.ROOT) + "/" + run);
    Path source = new Path(root, "from/d");
    Path target = new Path(root, "to/d");
    URI uri = URI.create(system.uri());
    new FlatDirectoryBuilder(uri, conf, settings.builderThreads()).build(source, files, progress);
    try (FileSystem client = FileSystem.newInstance(uri, conf)) {
      if (!client.mkdirs(target.getParent())) {
        throw new IOException("mkdirs " + target.getParent() + " on " + system.name() + " returned false");
      }
      double mv = timed(system, MV + " " + source + " " + target, () -> client.rename(source, target), failures,
          progress);
      Path deleted = Double.isNaN(mv) ? source : target;
      double rm = timed(system, RM + " " + deleted, () -> client.delete(deleted, true), failures, progress);
      if (!Double.isNaN(rm) && client.exists(deleted)) {
        failures.add(system.name() + ": " + deleted + " still exists after its rm -r returned true", progress);
      }
      client.delete(root, true); // untimed
      progress.printf(Locale.ROOT, "  %s, %,d files: mv %.3f s, rm -r %.3f s%n", system.name(), files, mv, rm);
      progress.flush();
      return List.of(new Timing(MV, files, system.name(), mv), new Timing(RM, files, system.name(), rm));
    }
  }

  private interface TimedCall {
    boolean run() throws IOException;
  }

  /** Seconds the call took, or NaN (and a failure) when it threw or answered false. */
  private static double timed(SystemUnderTest system, String what, TimedCall call, Failures failures,
      PrintWriter progress) {
    long start = System.nanoTime();
    try {
      if (call.run()) {
        return (System.nanoTime() - start) / 1e9;
      }
      failures.add(system.name() + ": " + what + " returned false", progress);
    } catch (IOException | RuntimeException e) {
      failures.add(system.name() + ": " + what + " failed: " + e, progress);
    }
    return Double.NaN;
  }

  /** Clients in the parent, undisturbed, then during the rm -r of a directory of {@code disturbanceFiles} files. */
  private static Disturbance disturb(SystemUnderTest system, Configuration conf, BenchMode.Subtree settings,
      long seed, Failures failures, PrintWriter progress) throws IOException {
    Path parent = new Path(BASE, system.name().toLowerCase(Locale.ROOT) + "/disturbance");
    Path victim = new Path(parent, "big");
    URI uri = URI.create(system.uri());
    new FlatDirectoryBuilder(uri, conf, settings.builderThreads()).build(victim, settings.disturbanceFiles(),
        progress);
    try (FileSystem client = FileSystem.newInstance(uri, conf)) {
      WindowResult undisturbed;
      WindowResult during;
      double deleteSeconds;
      ServerCpu.Meter cpu = new ServerCpu.Meter(system.serverCpuRoots());
      try (ParentDirectoryLoad load = ParentDirectoryLoad.start(uri, conf, parent, settings.workers(), seed)) {
        pause(settings.warmupMs());
        ParentDirectoryLoad.Window quiet = load.startWindow();
        pause(settings.undisturbedMs());
        undisturbed = quiet.end();
        cpu.started();
        ParentDirectoryLoad.Window busy = load.startWindow();
        deleteSeconds = timed(system, RM + " " + victim, () -> client.delete(victim, true), failures, progress);
        during = busy.end();
        cpu.ended();
      }
      client.delete(parent, true); // untimed
      Disturbance disturbance = new Disturbance(system.name(), settings.disturbanceFiles(), deleteSeconds,
          undisturbed, during, cpu.usage());
      failures.addAll(disturbance.failures(), system.name() + ", a client in the parent: ",
          concat(undisturbed.firstFailures(), during.firstFailures()), progress);
      progress.printf(Locale.ROOT, "  %s, clients in the parent: %.0f ops/s (p99 %.1f ms) undisturbed, %.0f ops/s "
          + "(p99 %.1f ms) during the %.2f s rm -r of %,d files: kept %.0f%%%n", system.name(),
          undisturbed.operationsPerSecond(), undisturbed.latency().p99Ms(), during.operationsPerSecond(),
          during.latency().p99Ms(), deleteSeconds, settings.disturbanceFiles(), 100 * disturbance.kept());
      progress.flush();
      return disturbance;
    }
  }

  private static void pause(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during the subtree benchmark");
    }
  }
}
