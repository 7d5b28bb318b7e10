package io.canopy.bench;

import io.canopy.bench.nnthroughput.NnThroughput;
import io.canopy.bench.nnthroughput.NnThroughputResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Hadoop's NNThroughputBenchmark in remote mode against both systems, per operation, repeated; alternating which
 * system goes first in each repetition so that drift of the machine does not favour one.
 */
final class NnThroughputComparison {
  /** The operations the issue asks for, in NNThroughputBenchmark's names. */
  static final List<String> OPERATIONS = List.of("create", "mkdirs", "open", "fileStatus", "rename", "delete");
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);

  /** Throughputs of one operation on both systems, and their servers' CPU per operation in the timed phase. */
  record Row(String operation, Spread canopy, Spread hdfs, ServerCpu.PerOperation canopyCpu,
      ServerCpu.PerOperation hdfsCpu) {
    double ratio() {
      return canopy.median() / hdfs.median();
    }
  }

  /** Every run of one operation on one system. */
  private record Runs(List<Double> opsPerSecond, List<ServerCpu.Usage> cpu, List<Long> operations) {
    Runs() {
      this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    void add(NnThroughputResult result) {
      opsPerSecond.add(result.opsPerSecond());
      cpu.add(result.serverCpu());
      operations.add(result.operations());
    }

    ServerCpu.PerOperation cpuPerOperation() {
      return ServerCpu.PerOperation.of(cpu, operations);
    }
  }

  private NnThroughputComparison() {
  }

  static List<Row> run(BenchMode mode, List<SystemUnderTest> systems, Map<String, String> conf, Path workDir,
      CpuPinning pinning, PrintWriter progress) throws IOException {
    Map<String, Map<String, Runs>> measured = new LinkedHashMap<>();
    int warmups = mode.nnWarmupRuns();
    for (int repetition = -warmups; repetition < mode.repetitions(); repetition++) {
      boolean warmup = repetition < 0;
      List<SystemUnderTest> order = new ArrayList<>(systems);
      if (Math.floorMod(repetition, 2) == 1) {
        java.util.Collections.reverse(order);
      }
      for (String operation : OPERATIONS) {
        for (SystemUnderTest system : order) {
          NnThroughputResult result = NnThroughput.run(system.uri(), operation, mode.nnThreads(),
              mode.nnOperations(), conf, RUN_TIMEOUT, workDir.resolve(system.name().toLowerCase(Locale.ROOT)),
              pinning.clientCommandPrefix(), List.of(NnThroughput.serverCpuOption(system.serverCpuRoots())));
          if (!warmup) {
            measured.computeIfAbsent(operation, o -> new LinkedHashMap<>())
                .computeIfAbsent(system.name(), s -> new Runs()).add(result);
          }
          progress.printf(Locale.ROOT, "  NNThroughputBenchmark %-10s %-6s %s: %8.0f ops/s, server CPU %.0f "
              + "us/op%n", operation, system.name(), warmup ? "warm-up (not recorded)" : "run " + (repetition + 1),
              result.opsPerSecond(), result.serverCpu().totalMicrosPerOperation(result.operations()));
          progress.flush();
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (String operation : OPERATIONS) {
      Runs canopy = measured.get(operation).get("Canopy");
      Runs hdfs = measured.get(operation).get("HDFS");
      rows.add(new Row(operation, Spread.of(canopy.opsPerSecond()), Spread.of(hdfs.opsPerSecond()),
          canopy.cpuPerOperation(), hdfs.cpuPerOperation()));
    }
    return rows;
  }

  /** The command line of one run, for the report: the arguments NnThroughput passes, with placeholders. */
  static String command(BenchMode mode, String operation, Map<String, String> conf) {
    return "NNThroughputBenchmark " + String.join(" ", NnThroughput.arguments("hdfs://127.0.0.1:PORT", operation,
        mode.nnThreads(), mode.nnOperations(), new java.util.TreeMap<>(conf), "/nnThroughputBenchmark/RUNID"));
  }
}
