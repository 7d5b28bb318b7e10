package io.canopy.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Open throughput at two path depths (issue 4: open at depth 10 within 10% of open at depth 2). Each system gets
 * {@link #FILES} one-byte files whose paths have exactly {@link #SHALLOW} and {@link #DEEP} components; threads then
 * open (getBlockLocations, no data read) and close random files of one depth for a fixed time. Depths alternate
 * per repetition, as do the systems.
 */
final class OpenDepthComparison {
  static final int SHALLOW = 2;
  static final int DEEP = 10;
  static final int FILES = 64;
  private static final String BASE = "/canopy-bench/open-depth";

  /** Ops/s per system at each depth. */
  record Outcome(int threads, int seconds, Spread canopyShallow, Spread canopyDeep, Spread hdfsShallow,
      Spread hdfsDeep) {
    /** Deep throughput over shallow throughput (1 = depth costs nothing). */
    double canopyDepthRatio() {
      return canopyDeep.median() / canopyShallow.median();
    }

    double hdfsDepthRatio() {
      return hdfsDeep.median() / hdfsShallow.median();
    }
  }

  private OpenDepthComparison() {
  }

  /** The directory holding the files of paths with {@code depth} components (the file name included). */
  static Path directory(int depth) {
    // BASE has 2 components; the directory has depth - 1 so that its files have exactly depth
    Path directory = depth >= 3 ? new Path(BASE) : new Path("/open-depth-" + depth);
    for (int level = 3; level < depth; level++) {
      directory = new Path(directory, "l" + level);
    }
    return directory;
  }

  static Outcome run(BenchMode mode, List<SystemUnderTest> systems, Configuration conf, long seed,
      PrintWriter progress) throws IOException, InterruptedException {
    int threads = mode.mixThreads();
    int seconds = Math.max(2, mode.mixSeconds() / 2);
    List<List<Double>> shallow = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> deep = List.of(new ArrayList<>(), new ArrayList<>());
    for (SystemUnderTest system : systems) {
      try (FileSystem fs = FileSystem.newInstance(URI.create(system.uri()), conf)) {
        for (int depth : new int[] {SHALLOW, DEEP}) {
          for (int i = 0; i < FILES; i++) {
            try (FSDataOutputStream out = fs.create(new Path(directory(depth), "f" + i), true)) {
              out.write(1);
            }
          }
        }
      }
    }
    for (int repetition = 0; repetition < mode.repetitions(); repetition++) {
      for (int index : BenchMode.alternatingOrder(repetition, systems.size())) {
        SystemUnderTest system = systems.get(index);
        int[] depths = repetition % 2 == 0 ? new int[] {SHALLOW, DEEP} : new int[] {DEEP, SHALLOW};
        for (int depth : depths) {
          double opsPerSecond = measure(system, conf, depth, threads, seconds, seed + repetition);
          (depth == SHALLOW ? shallow : deep).get(index).add(opsPerSecond);
          progress.printf(Locale.ROOT, "  open at depth %d on %s, run %d of %d: %.0f ops/s%n", depth,
              system.name(), repetition + 1, mode.repetitions(), opsPerSecond);
          progress.flush();
        }
      }
    }
    return new Outcome(threads, seconds, Spread.of(shallow.get(0)), Spread.of(deep.get(0)),
        Spread.of(shallow.get(1)), Spread.of(deep.get(1)));
  }

  private static double measure(SystemUnderTest system, Configuration conf, int depth, int threads, int seconds,
      long seed) throws IOException, InterruptedException {
    Path directory = directory(depth);
    AtomicLong opens = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (FileSystem fs = FileSystem.newInstance(URI.create(system.uri()), conf)) {
      long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
      long start = warmupEnd;
      long end = start + TimeUnit.SECONDS.toNanos(seconds);
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(seed * 31 + t);
        workers.add(pool.submit(() -> {
          while (true) {
            long now = System.nanoTime();
            if (now >= end) {
              return null;
            }
            fs.open(new Path(directory, "f" + random.nextInt(FILES))).close();
            if (now >= start) {
              opens.incrementAndGet();
            }
          }
        }));
      }
      for (Future<?> worker : workers) {
        try {
          worker.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException("open at depth " + depth + " on " + system.name() + " failed: " + e.getCause(),
              e.getCause());
        }
      }
      return opens.get() / (double) seconds;
    } finally {
      pool.shutdownNow();
    }
  }
}
