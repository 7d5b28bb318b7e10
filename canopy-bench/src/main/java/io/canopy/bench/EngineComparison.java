package io.canopy.bench;

import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.OperationMix;
import io.canopy.bench.nnthroughput.NnThroughput;
import io.canopy.bench.nnthroughput.NnThroughputResult;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * The same workloads on Canopy with its metadata on each engine, one fresh cluster per engine, in one run (issue 18):
 * NNThroughputBenchmark's operations and the Spotify mix, with one namenode and three datanodes. For each workload,
 * throughput and what one operation cost: database transactions, round trips and statements (or engine requests),
 * from the namenode's counters, and the servers' CPU by process kind from /proc. A table per namenode call gives
 * the round trips and statements each call costs on each engine, whatever the workload; the design note projects
 * throughput on more machines from these figures. Servers are pinned as in {@code bench report}.
 */
final class EngineComparison {
  static final String MIX = "Spotify mix";
  private static final int DATANODES = 3;
  private static final Map<String, String> CLUSTER_SETTINGS = Map.of("dfs.replication", "3");
  /** One NNThroughputBenchmark run, setup included: 5,000 creates at Ignite's 9.5 a second take 9 minutes. */
  private static final Duration NN_RUN_TIMEOUT = Duration.ofMinutes(30);
  /**
   * The namenode calls one NNThroughputBenchmark operation makes (its create runs without {@code -close}: no
   * complete); the other operations' setup creates and completes its files, which these leave out.
   */
  static final Map<String, List<String>> NAMENODE_CALLS = Map.of("create", List.of("create"),
      "mkdirs", List.of("mkdirs"), "open", List.of("getBlockLocations"), "fileStatus", List.of("getFileInfo"),
      "rename", List.of("rename"), "delete", List.of("delete"));
  /** Rows of the per-call table: the calls made most, at most this many. */
  private static final int CALL_ROWS = 16;

  /**
   * One workload on one engine: throughputs of its repetitions, its recorded operations, the servers' CPU over
   * them, the namenode's database work for them, failed operations, and the error that ended it early (or null).
   */
  record Row(String workload, MetadataEngine engine, List<Double> opsPerSecond, double operations,
      ServerCpu.Usage cpu, OperationMetrics.Snapshot database, long failures, String error) {
    double micros(String kind) {
      return operations > 0 ? cpu.secondsByKind().getOrDefault(kind, 0.0) * 1e6 / operations : Double.NaN;
    }

    /** The metadata database's CPU per operation, whichever engine (and PostgreSQL's idle launcher). */
    double databaseMicros() {
      return micros(CanopySystem.POSTGRESQL) + micros(CanopySystem.IGNITE) + micros(CanopySystem.LAUNCHER);
    }

    double perOperation(long count) {
      return operations > 0 ? count / operations : Double.NaN;
    }
  }

  /**
   * Everything measured on one engine's cluster: whether it started, the time {@code canopy up} took (or spent
   * failing), and every namenode call's counters.
   */
  record EngineRun(MetadataEngine engine, boolean started, Duration startup, List<Row> rows,
      Map<String, OperationMetrics.Snapshot> calls) {
  }

  private EngineComparison() {
  }

  static List<EngineRun> run(BenchMode mode, Path work, long seed, List<MetadataEngine> engines,
      PrintWriter progress) throws IOException {
    CpuPinning pinning = mode == BenchMode.SMOKE ? CpuPinning.disabled() : CpuPinning.detect();
    pinning.pinThisProcessToClients();
    progress.println("Metadata engines, mode " + mode.name() + ", seed " + seed + "; " + pinning.describe());
    MixSettings settings = MixComparison.settings(mode, OperationMix.spotify(), seed);
    Configuration base = new Configuration();
    CLUSTER_SETTINGS.forEach(base::set);
    List<EngineRun> runs = new ArrayList<>();
    for (MetadataEngine engine : engines) {
      Path directory = work.resolve("canopy-" + engine.name() + "-" + engine.nodes());
      NamenodeScaling.deleteRecursively(directory);
      progress.println("Canopy on " + engine.label() + ": starting (1 namenode, " + DATANODES + " datanodes)");
      progress.flush();
      Instant starting = Instant.now();
      CanopySystem started;
      try {
        // Started on every CPU, pinned once up: three Ignite nodes starting on one core (the clients' core, which
        // this JVM's children inherit) missed canopy up's bounds twice with the cluster's 20 ms safe-time sync.
        pinning.unpin(List.of());
        started = CanopySystem.start(directory, 1, DATANODES, engine, CLUSTER_SETTINGS);
      } catch (IOException e) {
        // the next engines are still measured; every workload of this one is reported as not run, with the reason
        progress.println("  canopy up failed: " + e.getMessage());
        progress.flush();
        String reason = "canopy up failed: " + lastLine(e.getMessage());
        List<Row> rows = new ArrayList<>();
        for (String workload : workloads()) {
          rows.add(new Row(workload, engine, List.of(), 0, ServerCpu.Usage.NONE, OperationMetrics.Snapshot.ZERO, 1,
              reason));
        }
        runs.add(new EngineRun(engine, false, Duration.between(starting, Instant.now()), rows, Map.of()));
        continue;
      }
      Duration startup = Duration.between(starting, Instant.now());
      progress.printf(Locale.ROOT, "  started in %.1f s%n", startup.toMillis() / 1000.0);
      List<Row> rows = new ArrayList<>();
      Map<String, OperationMetrics.Snapshot> calls = Map.of();
      try (CanopySystem canopy = started) {
        pinning.pinServers(canopy.serverPids());
        pinning.pinThisProcessToClients();
        for (String operation : NnThroughputComparison.OPERATIONS) {
          rows.add(nnThroughput(operation, engine, canopy, mode, directory, pinning, progress));
        }
        rows.add(mix(engine, canopy, canopy.clientConfiguration(base), settings, mode, pinning, progress));
        calls = MixComparison.awaitFreshMetrics(canopy);
      } catch (IOException | RuntimeException e) {
        // the cluster broke under the harness (or did not stop): what was measured stays, the rest is reported
        progress.println("  measuring " + engine.label() + " ended early: " + e);
        progress.flush();
        for (String workload : workloads().subList(rows.size(), workloads().size())) {
          rows.add(new Row(workload, engine, List.of(), 0, ServerCpu.Usage.NONE, OperationMetrics.Snapshot.ZERO, 1,
              firstLine(String.valueOf(e.getMessage()))));
        }
      }
      runs.add(new EngineRun(engine, true, startup, rows, calls));
    }
    return runs;
  }

  private static Row nnThroughput(String operation, MetadataEngine engine, CanopySystem canopy, BenchMode mode,
      Path directory, CpuPinning pinning, PrintWriter progress) throws IOException {
    List<Double> throughputs = new ArrayList<>();
    ServerCpu.Usage cpu = ServerCpu.Usage.NONE;
    OperationMetrics.Snapshot database = OperationMetrics.Snapshot.ZERO;
    long operations = 0;
    for (int repetition = -mode.nnWarmupRuns(); repetition < mode.repetitions(); repetition++) {
      Map<String, OperationMetrics.Snapshot> before = MixComparison.awaitFreshMetrics(canopy);
      NnThroughputResult result;
      try {
        pinning.pinServers(canopy.serverPids());
        result = NnThroughput.run(canopy.uri(), operation, mode.nnThreads(), mode.nnOperations(), CLUSTER_SETTINGS,
            NN_RUN_TIMEOUT, directory.resolve("nnthroughput"), pinning.clientCommandPrefix(),
            List.of(NnThroughput.serverCpuOption(canopy.serverCpuRoots())));
      } catch (IOException e) {
        progress.printf(Locale.ROOT, "  NNThroughputBenchmark %-10s on %s failed: %s%n", operation,
            engine.label(), e.getMessage());
        progress.flush();
        return new Row(operation, engine, throughputs, operations, cpu, database, 1, firstLine(e.getMessage()));
      }
      Map<String, OperationMetrics.Snapshot> after = MixComparison.awaitFreshMetrics(canopy);
      boolean warmup = repetition < 0;
      if (!warmup) {
        throughputs.add(result.opsPerSecond());
        cpu = cpu.plus(result.serverCpu());
        operations += result.operations();
        for (String call : NAMENODE_CALLS.get(operation)) {
          database = database.plus(after.getOrDefault(call, OperationMetrics.Snapshot.ZERO)
              .minus(before.getOrDefault(call, OperationMetrics.Snapshot.ZERO)));
        }
      }
      progress.printf(Locale.ROOT, "  NNThroughputBenchmark %-10s on %s, %s: %8.1f ops/s, server CPU %.0f us/op%n",
          operation, engine.label(), warmup ? "warm-up (not recorded)" : "run " + (repetition + 1),
          result.opsPerSecond(), result.serverCpu().totalMicrosPerOperation(result.operations()));
      progress.flush();
    }
    return new Row(operation, engine, throughputs, operations, cpu, database, database.failures(), null);
  }

  private static Row mix(MetadataEngine engine, CanopySystem canopy, Configuration conf, MixSettings settings,
      BenchMode mode, CpuPinning pinning, PrintWriter progress) throws IOException {
    NamenodeScaling.Row measured;
    try {
      measured = NamenodeScaling.measure("Canopy", 1, canopy, conf, settings, mode, pinning, progress);
    } catch (IOException e) {
      progress.printf(Locale.ROOT, "  %s on %s failed: %s%n", MIX, engine.label(), e.getMessage());
      progress.flush();
      return new Row(MIX, engine, List.of(), 0, ServerCpu.Usage.NONE, OperationMetrics.Snapshot.ZERO, 1,
          firstLine(e.getMessage()));
    }
    return new Row(MIX, engine, measured.opsPerSecond(), measured.operations(),
        new ServerCpu.Usage(measured.cpuSeconds()), measured.database(), measured.failures(), null);
  }

  /** The workloads of every engine's run, in the report's order. */
  static List<String> workloads() {
    List<String> workloads = new ArrayList<>(NnThroughputComparison.OPERATIONS);
    workloads.add(MIX);
    return workloads;
  }

  private static String lastLine(String message) {
    String text = message == null ? "failed" : message.strip();
    return text.substring(text.lastIndexOf('\n') + 1);
  }

  private static String firstLine(String message) {
    String text = message == null ? "failed" : message.strip();
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  static long failures(List<EngineRun> runs) {
    return runs.stream().flatMap(run -> run.rows().stream()).mapToLong(Row::failures).sum();
  }

  static void write(List<EngineRun> runs, BenchMode mode, long seed, Path out, String command, Instant started)
      throws IOException {
    StringBuilder text = new StringBuilder();
    text.append("# Canopy's metadata on PostgreSQL and on Apache Ignite 3\n\n");
    text.append("Generated by `").append(command).append("` (").append(started).append(", mode ")
        .append(mode.name()).append(", seed ").append(seed).append("). One fresh cluster per engine, one after the "
            + "other on this machine: 1 namenode, ").append(DATANODES).append(" datanodes, replication 3; Ignite's "
            + "nodes keep every partition on min(nodes, 3) of them. NNThroughputBenchmark (remote mode, ")
        .append(mode.nnThreads()).append(" threads, ").append(mode.nnOperations()).append(" operations per run, ")
        .append(mode.repetitions()).append(" run(s)) then the Spotify mix (").append(mode.mixThreads())
        .append(" client threads, ").append(mode.repetitions()).append(" run(s) of ").append(mode.mixSeconds())
        .append(" s). Servers pinned as in `bench report` (one core for every server process, database nodes "
            + "included, one for the clients, when taskset exists): a 2-core machine shows what each engine costs, "
            + "not how it scales out. Server CPU from /proc over the recorded part; transactions, round trips and "
            + "statements from the namenode's counters (for NNThroughputBenchmark, of the calls of its operation over "
            + "the whole run, its setup's creates and completes left out: ").append(callsText())
        .append("; on Ignite a statement is one request to the cluster).\n\n");
    text.append("| engine | `canopy up` took |\n|---|---:|\n");
    for (EngineRun run : runs) {
      text.append(String.format(Locale.ROOT, "| %s | %s%.0f s |%n", run.engine().label(),
          run.started() ? "" : "failed after ", run.startup().toMillis() / 1000.0));
    }
    text.append("\n## Throughput\n\n| workload |");
    runs.forEach(run -> text.append(' ').append(run.engine().label()).append(", ops/s |")
        .append(run == runs.get(0) ? "" : " vs " + runs.get(0).engine().label() + " |"));
    text.append("\n|---|");
    runs.forEach(run -> text.append(run == runs.get(0) ? "---:|" : "---:|---:|"));
    text.append('\n');
    for (int index = 0; index < runs.get(0).rows().size(); index++) {
      Row first = runs.get(0).rows().get(index);
      text.append("| ").append(first.workload()).append(" |");
      for (EngineRun run : runs) {
        Row row = run.rows().get(index);
        text.append(' ').append(throughput(row)).append(" |");
        if (run != runs.get(0)) {
          text.append(' ').append(ratio(row, first)).append(" |");
        }
      }
      text.append('\n');
    }
    text.append("\n## Cost of one operation\n\n| workload | engine | ops/s | transactions/op | round trips/op | "
        + "statements/op | namenode µs/op | database µs/op | datanodes µs/op | failures |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int index = 0; index < runs.get(0).rows().size(); index++) {
      for (EngineRun run : runs) {
        Row row = run.rows().get(index);
        text.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |%n",
            row.workload(), run.engine().label(), throughput(row), number(row.perOperation(row.database()
                .operations()), "%.2f"), number(row.perOperation(row.database().roundTrips()), "%.1f"),
            number(row.perOperation(row.database().statements()), "%.1f"),
            number(row.micros(CanopySystem.NAMENODES), "%.0f"), number(row.databaseMicros(), "%.0f"),
            number(row.micros(CanopySystem.DATANODES), "%.0f"), row.failures()));
      }
    }
    text.append("\n## Cost of one namenode call, whatever the workload\n\nEvery call the namenode ran on each "
        + "cluster from its start (the mix's namespace build and datanode traffic included), the calls made "
        + "most on the first engine; round trips and statements of a call's final attempt, and its retries.\n\n"
        + "| call |");
    runs.forEach(run -> text.append(' ').append(run.engine().label()).append(": calls, round trips, statements, "
        + "retries per call |"));
    text.append("\n|---|");
    runs.forEach(run -> text.append("---|"));
    text.append('\n');
    for (String call : busiestCalls(runs.get(0).calls())) {
      text.append("| ").append(call).append(" |");
      for (EngineRun run : runs) {
        OperationMetrics.Snapshot figures = run.calls().getOrDefault(call, OperationMetrics.Snapshot.ZERO);
        text.append(figures.operations() == 0 ? " |" : String.format(Locale.ROOT, " %d, %.1f, %.1f, %.2f |",
            figures.operations(), figures.roundTripsPerOperation(), figures.statementsPerOperation(),
            (double) figures.retries() / figures.operations()));
      }
      text.append('\n');
    }
    List<String> errors = new ArrayList<>();
    runs.forEach(run -> run.rows().stream().filter(row -> row.error() != null).forEach(row -> errors.add(
        run.engine().label() + ", " + row.workload() + ": " + row.error())));
    if (!errors.isEmpty()) {
      text.append("\nRuns that ended early:\n\n");
      errors.forEach(error -> text.append("- ").append(error).append('\n'));
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, text.toString());
  }

  private static String callsText() {
    Map<String, List<String>> ordered = new TreeMap<>(NAMENODE_CALLS);
    List<String> parts = new ArrayList<>();
    ordered.forEach((operation, calls) -> parts.add(operation + " = " + String.join(" + ", calls)));
    return String.join(", ", parts);
  }

  static List<String> busiestCalls(Map<String, OperationMetrics.Snapshot> calls) {
    return calls.entrySet().stream().filter(entry -> entry.getValue().operations() > 0)
        .sorted((a, b) -> Long.compare(b.getValue().operations(), a.getValue().operations())).limit(CALL_ROWS)
        .map(Map.Entry::getKey).toList();
  }

  private static String throughput(Row row) {
    return row.opsPerSecond().isEmpty() ? "failed" : Spread.of(row.opsPerSecond()).format("%.1f");
  }

  private static String ratio(Row row, Row reference) {
    if (row.opsPerSecond().isEmpty() || reference.opsPerSecond().isEmpty()) {
      return "";
    }
    return String.format(Locale.ROOT, "%.2f", Spread.of(row.opsPerSecond()).median()
        / Spread.of(reference.opsPerSecond()).median());
  }

  private static String number(double value, String pattern) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, pattern, value);
  }

  /** Parses {@code --engines}: {@code postgres}, {@code ignite:N}. */
  static MetadataEngine parse(String text) {
    String[] parts = text.strip().split(":", 2);
    if (parts[0].equals("postgres") && parts.length == 1) {
      return MetadataEngine.POSTGRES;
    }
    if (parts[0].equals("ignite") && parts.length == 2) {
      try {
        return MetadataEngine.ignite(Integer.parseInt(parts[1]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("ignite:N wants a node count, got '" + text + "'", e);
      }
    }
    throw new IllegalArgumentException("an engine is postgres or ignite:N (N database nodes), got '" + text + "'");
  }
}
