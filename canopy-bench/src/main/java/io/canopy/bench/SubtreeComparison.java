package io.canopy.bench;

import io.canopy.bench.mix.CallWindows;
import io.canopy.bench.mix.CallWindows.WindowResult;
import io.canopy.bench.mix.FlatDirectoryBuilder;
import io.canopy.bench.mix.MixLoad;
import io.canopy.bench.mix.MixNamespace;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.ParentDirectoryLoad;
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
 * timed from the client; then clients work in the parent of a directory of {@code disturbanceFiles} files and a
 * Spotify mix runs in a namespace of its own beside it, first undisturbed for a fixed interval, then while that
 * directory is deleted, and the throughput each keeps is compared.
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

  /** One group of clients, undisturbed and during the delete. */
  record Clients(WindowResult undisturbed, WindowResult during) {
    /** During / undisturbed throughput; NaN without undisturbed throughput. */
    double kept() {
      return undisturbed.operationsPerSecond() > 0 ? during.operationsPerSecond() / undisturbed.operationsPerSecond()
          : Double.NaN;
    }

    long failures() {
      return undisturbed.failures() + during.failures();
    }

    List<String> firstFailures() {
      List<String> all = new ArrayList<>(undisturbed.firstFailures());
      all.addAll(during.firstFailures());
      return all;
    }
  }

  /**
   * The clients in the parent and the Spotify mix elsewhere, undisturbed and during the delete of {@code files}
   * files on one system.
   *
   * @param deleteSeconds the delete, timed from its client
   * @param parent the clients working in the deleted directory's parent
   * @param mix the Spotify mix in a namespace of its own
   * @param deleteCpu the servers' CPU time over the delete
   */
  record Disturbance(String system, int files, double deleteSeconds, Clients parent, Clients mix,
      ServerCpu.Usage deleteCpu) {
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
     * Whether Canopy's clients in the parent (the target is theirs; the mix elsewhere is reported beside it) kept at least {@link #TARGET_KEPT} during a delete that succeeded (false
     * when not measured, or when the delete failed: its short window says nothing).
     */
    boolean targetMet() {
      Disturbance canopy = disturbance("Canopy");
      return canopy != null && !Double.isNaN(canopy.deleteSeconds()) && canopy.parent().kept() >= TARGET_KEPT;
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

  /** The Spotify mix of the disturbance step: its own namespace under {@code base}, this section's threads. */
  static MixSettings mixSettings(BenchMode.Subtree settings, Path base, long seed) {
    MixSettings defaults = MixSettings.defaults();
    return defaults.withBaseDirectory(base.toUri().getPath())
        .withShape(defaults.shape().withDepth(settings.mixDepth())).withThreads(settings.mixThreads())
        .withBuilderThreads(settings.builderThreads()).withSeed(seed);
  }

  /**
   * Clients in the parent and a Spotify mix elsewhere (its namespace built first), undisturbed, then during the rm -r
   * of a directory of {@code disturbanceFiles} files.
   */
  private static Disturbance disturb(SystemUnderTest system, Configuration conf, BenchMode.Subtree settings,
      long seed, Failures failures, PrintWriter progress) throws IOException {
    Path root = new Path(BASE, system.name().toLowerCase(Locale.ROOT));
    Path parent = new Path(root, "disturbance");
    Path victim = new Path(parent, "big");
    URI uri = URI.create(system.uri());
    new FlatDirectoryBuilder(uri, conf, settings.builderThreads()).build(victim, settings.disturbanceFiles(),
        progress);
    MixSettings mixSettings = mixSettings(settings, new Path(root, "elsewhere"), seed);
    MixNamespace namespace = MixComparison.loadNamespace(system, mixSettings, conf, progress);
    try (FileSystem client = FileSystem.newInstance(uri, conf)) {
      Disturbance disturbance;
      try (ParentDirectoryLoad load = ParentDirectoryLoad.start(uri, conf, parent, settings.workers(), seed);
          MixLoad mix = MixLoad.start(uri, conf, mixSettings, namespace)) {
        disturbance = measure(system, settings, client, victim, load, mix, failures, progress);
      }
      client.delete(parent, true); // untimed
      client.delete(namespace.base(), true);
      failures.addAll(disturbance.parent().failures(), system.name() + ", a client in the parent: ",
          disturbance.parent().firstFailures(), progress);
      failures.addAll(disturbance.mix().failures(), system.name() + ", the Spotify mix elsewhere: ",
          disturbance.mix().firstFailures(), progress);
      report(progress, disturbance, "clients in the parent", disturbance.parent());
      report(progress, disturbance, "Spotify mix elsewhere", disturbance.mix());
      return disturbance;
    }
  }

  /** Both loads' windows: after the warm-up undisturbed, then from the start of the rm -r to its end. */
  private static Disturbance measure(SystemUnderTest system, BenchMode.Subtree settings, FileSystem client,
      Path victim, ParentDirectoryLoad load, MixLoad mix, Failures failures, PrintWriter progress)
      throws IOException {
    ServerCpu.Meter cpu = new ServerCpu.Meter(system.serverCpuRoots());
    pause(settings.warmupMs());
    List<CallWindows.Window> quiet = List.of(load.startWindow(), mix.startWindow());
    pause(settings.undisturbedMs());
    List<WindowResult> undisturbed = CallWindows.endTogether(quiet);
    cpu.started();
    List<CallWindows.Window> busy = List.of(load.startWindow(), mix.startWindow());
    double deleteSeconds = timed(system, RM + " " + victim, () -> client.delete(victim, true), failures, progress);
    List<WindowResult> during = CallWindows.endTogether(busy);
    cpu.ended();
    return new Disturbance(system.name(), settings.disturbanceFiles(), deleteSeconds,
        new Clients(undisturbed.get(0), during.get(0)), new Clients(undisturbed.get(1), during.get(1)), cpu.usage());
  }

  private static void report(PrintWriter progress, Disturbance disturbance, String who, Clients clients) {
    progress.printf(Locale.ROOT, "  %s, %s: %.0f ops/s (p99 %.1f ms) undisturbed, %.0f ops/s (p99 %.1f ms) during "
        + "the %.2f s rm -r of %,d files: kept %.0f%%%n", disturbance.system(), who,
        clients.undisturbed().operationsPerSecond(), clients.undisturbed().latency().p99Ms(),
        clients.during().operationsPerSecond(), clients.during().latency().p99Ms(), disturbance.deleteSeconds(),
        disturbance.files(), 100 * clients.kept());
    progress.flush();
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
