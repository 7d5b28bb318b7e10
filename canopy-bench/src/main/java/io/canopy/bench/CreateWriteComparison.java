package io.canopy.bench;

import io.canopy.bench.mix.FileRunResult;
import io.canopy.bench.mix.CreateWriteRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Create + write 4 KB + close through the stock client ({@link CreateWriteRunner}) on both systems, same threads
 * and seed, repeated with alternating order; the servers' CPU time is read over each recorded part.
 */
final class CreateWriteComparison {
  /** Each run writes into its own directory under this one, deleted after the run (untimed). */
  static final String BASE = "/canopy-bench/create-write";

  /** Every run on both systems. */
  record Outcome(int threads, Duration warmup, Duration duration, List<FileRunResult> canopy,
      List<FileRunResult> hdfs, List<ServerCpu.Usage> canopyCpu, List<ServerCpu.Usage> hdfsCpu) {
    long failures() {
      long failures = 0;
      for (FileRunResult result : canopy) {
        failures += result.totalFailures();
      }
      for (FileRunResult result : hdfs) {
        failures += result.totalFailures();
      }
      return failures;
    }

    ServerCpu.PerOperation canopyCpuPerFile() {
      return ServerCpu.PerOperation.of(canopyCpu, files(canopy));
    }

    ServerCpu.PerOperation hdfsCpuPerFile() {
      return ServerCpu.PerOperation.of(hdfsCpu, files(hdfs));
    }

    private static List<Long> files(List<FileRunResult> runs) {
      List<Long> files = new ArrayList<>();
      runs.forEach(run -> files.add(run.files()));
      return files;
    }
  }

  private CreateWriteComparison() {
  }

  static Outcome run(BenchMode mode, List<SystemUnderTest> systems, Configuration conf, long seed,
      PrintWriter progress) throws IOException {
    Duration warmup = Duration.ofSeconds(mode.writeWarmupSeconds());
    Duration duration = Duration.ofSeconds(mode.writeSeconds());
    List<List<FileRunResult>> results = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<ServerCpu.Usage>> cpu = List.of(new ArrayList<>(), new ArrayList<>());
    for (int repetition = 0; repetition < mode.repetitions(); repetition++) {
      for (int index : BenchMode.alternatingOrder(repetition, systems.size())) {
        SystemUnderTest system = systems.get(index);
        Path directory = new Path(BASE, "run-" + (repetition + 1));
        ServerCpu.Meter meter = new ServerCpu.Meter(system.serverCpuRoots());
        FileRunResult result = new CreateWriteRunner(URI.create(system.uri()), conf, mode.writeThreads(),
            warmup, duration, seed + repetition).run(directory, progress, meter);
        results.get(index).add(result);
        cpu.get(index).add(meter.usage());
        progress.printf(Locale.ROOT, "  create + write 4 KB + close on %s, run %d of %d: %.0f files/s, p50 %.1f ms, "
            + "p99 %.1f ms, %d failures, server CPU %.0f us/file%n", system.name(), repetition + 1,
            mode.repetitions(), result.filesPerSecond(), result.latency().p50Ms(), result.latency().p99Ms(),
            result.totalFailures(), meter.usage().totalMicrosPerOperation(Math.max(1, result.files())));
        progress.flush();
        try (FileSystem fs = FileSystem.newInstance(URI.create(system.uri()), conf)) {
          fs.delete(directory, true); // keeps the namespace of later runs as it was
        }
      }
    }
    return new Outcome(mode.writeThreads(), warmup, duration, results.get(0), results.get(1), cpu.get(0),
        cpu.get(1));
  }
}
