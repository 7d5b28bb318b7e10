package io.canopy.bench;

import io.canopy.bench.mix.MixNamespace;
import io.canopy.bench.mix.MixResult;
import io.canopy.bench.mix.MixRunner;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.NamespaceBuilder;
import io.canopy.bench.mix.OperationMix;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One mix workload (the Spotify mix or its write-heavy variant) on both systems, same settings and seed, repeated
 * with alternating order. Also counts the database round trips Canopy's namenode spent per operation type.
 */
final class MixComparison {
  /** What one workload measured; CPU time per run, in the order of the runs. */
  record Outcome(String workload, MixSettings settings, List<MixResult> canopy, List<MixResult> hdfs,
      Map<String, OperationMetrics.Snapshot> canopyStatements, List<ServerCpu.Usage> canopyCpu,
      List<ServerCpu.Usage> hdfsCpu) {
    long failures() {
      long failures = 0;
      for (MixResult result : canopy) {
        failures += result.totalFailures();
      }
      for (MixResult result : hdfs) {
        failures += result.totalFailures();
      }
      return failures;
    }

    ServerCpu.PerOperation canopyCpuPerOperation() {
      return ServerCpu.PerOperation.of(canopyCpu, operations(canopy));
    }

    ServerCpu.PerOperation hdfsCpuPerOperation() {
      return ServerCpu.PerOperation.of(hdfsCpu, operations(hdfs));
    }

    private static List<Long> operations(List<MixResult> runs) {
      List<Long> operations = new ArrayList<>();
      runs.forEach(run -> operations.add(run.totalCount()));
      return operations;
    }
  }

  private MixComparison() {
  }

  static MixSettings settings(BenchMode mode, OperationMix mix, long seed) {
    MixSettings defaults = MixSettings.defaults();
    return defaults.withShape(defaults.shape().withDepth(mode.namespaceDepth())).withMix(mix)
        .withThreads(mode.mixThreads()).withWarmup(Duration.ofSeconds(mode.mixWarmupSeconds()))
        .withDuration(Duration.ofSeconds(mode.mixSeconds())).withSeed(seed);
  }

  static Outcome run(String workload, MixSettings settings, BenchMode mode, CanopySystem canopy, HdfsSystem hdfs,
      Configuration conf, PrintWriter progress) throws IOException {
    List<MixResult> canopyRuns = new ArrayList<>();
    List<MixResult> hdfsRuns = new ArrayList<>();
    List<ServerCpu.Usage> canopyCpu = new ArrayList<>();
    List<ServerCpu.Usage> hdfsCpu = new ArrayList<>();
    Map<String, OperationMetrics.Snapshot> statements = new TreeMap<>();
    for (int repetition = 0; repetition < mode.repetitions(); repetition++) {
      List<SystemUnderTest> order = new ArrayList<>(List.of(canopy, hdfs));
      if (repetition % 2 == 1) {
        Collections.reverse(order);
      }
      for (SystemUnderTest system : order) {
        progress.printf(Locale.ROOT, "  %s on %s, run %d of %d%n", workload, system.name(), repetition + 1,
            mode.repetitions());
        progress.flush();
        MixNamespace namespace = loadNamespace(system, settings, conf, progress);
        Map<String, OperationMetrics.Snapshot> before = system == canopy ? awaitFreshMetrics(canopy) : Map.of();
        ServerCpu.Meter meter = new ServerCpu.Meter(system.serverCpuRoots());
        MixResult result = new MixRunner(URI.create(system.uri()), conf, settings).run(namespace, progress, meter);
        if (system == canopy) {
          canopyRuns.add(result);
          canopyCpu.add(meter.usage());
          addDelta(statements, before, awaitFreshMetrics(canopy));
        } else {
          hdfsRuns.add(result);
          hdfsCpu.add(meter.usage());
        }
        progress.printf(Locale.ROOT, "  %s on %s: %.0f ops/s, %d failures, server CPU %.0f us/op%n", workload,
            system.name(), result.totalOpsPerSecond(), result.totalFailures(),
            meter.usage().totalMicrosPerOperation(Math.max(1, result.totalCount())));
        progress.flush();
      }
    }
    return new Outcome(workload, settings, canopyRuns, hdfsRuns, statements, canopyCpu, hdfsCpu);
  }

  /** Builds the namespace on first use, else lists it: not part of what is measured or counted. */
  static MixNamespace loadNamespace(SystemUnderTest system, MixSettings settings, Configuration conf,
      PrintWriter progress) throws IOException {
    try (FileSystem fileSystem = FileSystem.newInstance(URI.create(system.uri()), conf)) {
      return new NamespaceBuilder(fileSystem, settings.shape(), settings.seed(), settings.builderThreads(), progress)
          .buildOrLoad(new Path(settings.baseDirectory()));
    }
  }

  /** The namenode writes its counters every second: wait for a write that follows everything done so far. */
  static Map<String, OperationMetrics.Snapshot> awaitFreshMetrics(CanopySystem canopy) throws IOException {
    try {
      Thread.sleep(1500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for the namenode's counters", e);
    }
    return canopy.nameNodeMetrics();
  }

  private static void addDelta(Map<String, OperationMetrics.Snapshot> sum, Map<String, OperationMetrics.Snapshot> before,
      Map<String, OperationMetrics.Snapshot> after) {
    after.forEach((name, end) -> {
      OperationMetrics.Snapshot start = before.getOrDefault(name, OperationMetrics.Snapshot.ZERO);
      sum.merge(name, end.minus(start), OperationMetrics.Snapshot::plus);
    });
  }
}
