package io.canopy.bench;

import io.canopy.bench.mix.RecordedInterval;
import io.canopy.namenode.tx.OperationMetrics;
import io.canopy.bench.mix.CreateWriteRunner;
import io.canopy.bench.mix.FileRunResult;
import io.canopy.bench.mix.MixNamespace;
import io.canopy.bench.mix.MixResult;
import io.canopy.bench.mix.MixRunner;
import io.canopy.bench.mix.MixSettings;
import io.canopy.bench.mix.OperationMix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Two workloads on Canopy with 1, 2 and 3 namenodes, and on HDFS, in one run: the Spotify mix (mostly reads), and
 * create + write 4 KB + close through the stock client (every file a datanode block: its replicas reported to every
 * namenode, the report work issue 17 is about). Throughput, and where the servers' CPU time went (namenodes,
 * database, datanodes), which says what more cores would buy. Servers are pinned as in {@code bench report}; each
 * cluster is fresh and builds the same namespace.
 */
final class NamenodeScaling {
  private static final int DATANODES = 3;
  private static final Map<String, String> CLUSTER_SETTINGS = Map.of("dfs.replication", "3");
  static final String MIX = "Spotify mix";
  static final String WRITES = "create + write 4 KB";
  /** The write workload's files go here, one directory per run, deleted after it (untimed). */
  private static final String WRITE_BASE = "/canopy-bench/namenodes-write";
  /** Load between two looks at the servers' JIT queues, past the fixed warm-up. */
  static final int DRAIN_STEP_SECONDS = 60;
  /** The most load past the fixed warm-up spent waiting for the JIT queues to drain. */
  static final int MAX_DRAIN_SECONDS = 1800;
  /** The warm-up's files, kept: the cluster is discarded after its recorded runs. */
  private static final org.apache.hadoop.fs.Path WARM_UP_FILES = new org.apache.hadoop.fs.Path(WRITE_BASE, "warm-up");

  /**
   * One configuration's measurements of one workload: throughputs of the repetitions (operations, or files, per
   * second), and server CPU seconds per kind over their recorded parts, which together last {@code measuredSeconds}.
   */
  record Row(String workload, String system, int namenodes, List<Double> opsPerSecond, Map<String, Double> cpuSeconds,
      double measuredSeconds, long failures, double operations, OperationMetrics.Snapshot database) {
    double serverCores() {
      return cpuSeconds.values().stream().mapToDouble(Double::doubleValue).sum() / measuredSeconds;
    }

    /** Server CPU of one kind per client operation (or file), in microseconds. */
    double micros(String kind) {
      return operations > 0 ? cpuSeconds.getOrDefault(kind, 0.0) * 1e6 / operations : 0;
    }
  }

  /**
   * The servers' CPU over a run's recorded part, and the transactions, round trips and statements every namenode of
   * a Canopy cluster ran in it (their counters, written each second, so up to a second off at each end).
   */
  private static final class Metering implements RecordedInterval {
    final ServerCpu.Meter cpu;
    private final CanopySystem canopy;
    private Map<String, OperationMetrics.Snapshot> start;
    OperationMetrics.Snapshot database = OperationMetrics.Snapshot.ZERO;
    /** The run's counters by operation, for the progress output. */
    Map<String, OperationMetrics.Snapshot> byOperation = Map.of();

    Metering(SystemUnderTest system) throws IOException {
      this.cpu = new ServerCpu.Meter(system.serverCpuRoots());
      this.canopy = system instanceof CanopySystem c ? c : null;
    }

    @Override
    public void started() throws IOException {
      cpu.started();
      start = canopy == null ? null : canopy.allNameNodesByOperation();
    }

    @Override
    public void ended() throws IOException {
      cpu.ended();
      if (canopy != null) {
        Map<String, OperationMetrics.Snapshot> run = new java.util.TreeMap<>();
        canopy.allNameNodesByOperation().forEach((operation, end) -> run.put(operation,
            end.minus(start.getOrDefault(operation, OperationMetrics.Snapshot.ZERO))));
        byOperation = run;
        database = run.values().stream().reduce(OperationMetrics.Snapshot.ZERO, OperationMetrics.Snapshot::plus);
      }
    }

    /**
     * The operations that ran most in the run, as "name transactions/op (statements/op)", most first, for the
     * progress output ({@code count} is the run's client operations or files).
     */
    String busiest(double count, int limit) {
      if (count <= 0) {
        return "";
      }
      return byOperation.entrySet().stream().filter(e -> e.getValue().operations() > 0)
          .sorted((a, b) -> Long.compare(b.getValue().operations(), a.getValue().operations())).limit(limit)
          .map(e -> String.format(Locale.ROOT, "%s %.2f (%.1f)", e.getKey(), e.getValue().operations() / count,
              e.getValue().statements() / count))
          .collect(java.util.stream.Collectors.joining(", "));
    }
  }

  private NamenodeScaling() {
  }

  static List<Row> run(BenchMode mode, Path work, long seed, List<Integer> counts, int warmupSeconds,
      PrintWriter progress) throws Exception {
    CpuPinning pinning = mode == BenchMode.SMOKE ? CpuPinning.disabled() : CpuPinning.detect();
    pinning.pinThisProcessToClients();
    progress.println("Namenode scaling, mode " + mode.name() + ", seed " + seed + "; " + pinning.describe());
    MixSettings settings = MixComparison.settings(mode, OperationMix.spotify(), seed);
    Configuration base = new Configuration();
    CLUSTER_SETTINGS.forEach(base::set);
    List<Row> rows = new ArrayList<>();
    for (int namenodes : counts) {
      Path directory = work.resolve("canopy-" + namenodes + "nn");
      deleteRecursively(directory);
      progress.println("Canopy with " + namenodes + " namenode(s):");
      progress.flush();
      try (CanopySystem canopy = CanopySystem.start(directory, namenodes, DATANODES, CLUSTER_SETTINGS)) {
        pinning.pinServers(canopy.serverPids());
        Configuration conf = canopy.clientConfiguration(base);
        warmUp(canopy, conf, settings, seed, mode, warmupSeconds, pinning, progress);
        rows.add(measure("Canopy", namenodes, canopy, conf, settings, mode, pinning, progress));
        rows.add(measureWrites("Canopy", namenodes, canopy, conf, seed, mode, pinning, progress));
      }
    }
    Path hdfsDirectory = work.resolve("hdfs");
    deleteRecursively(hdfsDirectory);
    progress.println("HDFS (one namenode):");
    progress.flush();
    try (HdfsSystem hdfs = HdfsSystem.start(hdfsDirectory, DATANODES, CLUSTER_SETTINGS)) {
      pinning.pinServers(hdfs.serverPids());
      warmUp(hdfs, base, settings, seed, mode, warmupSeconds, pinning, progress);
      rows.add(measure("HDFS", 1, hdfs, base, settings, mode, pinning, progress));
      rows.add(measureWrites("HDFS", 1, hdfs, base, seed, mode, pinning, progress));
    }
    return rows;
  }

  static Row measure(String name, int namenodes, SystemUnderTest system, Configuration conf,
      MixSettings settings, BenchMode mode, CpuPinning pinning, PrintWriter progress) throws IOException {
    List<Double> throughputs = new ArrayList<>();
    ServerCpu.Usage cpu = ServerCpu.Usage.NONE;
    OperationMetrics.Snapshot database = OperationMetrics.Snapshot.ZERO;
    double seconds = 0;
    double operations = 0;
    long failures = 0;
    for (int repetition = 0; repetition < mode.repetitions(); repetition++) {
      // Built on first use, listed again before every run (the previous run renamed and deleted files).
      MixNamespace namespace = MixComparison.loadNamespace(system, settings, conf, progress);
      pinning.pinServers(system.serverPids()); // backends started since are pinned too
      Metering meter = new Metering(system);
      MixResult result = new MixRunner(URI.create(system.uri()), conf, settings).run(namespace, progress, meter);
      seconds += result.measuredSeconds();
      operations += result.totalOpsPerSecond() * result.measuredSeconds();
      cpu = cpu.plus(meter.cpu.usage());
      database = database.plus(meter.database);
      throughputs.add(result.totalOpsPerSecond());
      failures += result.totalFailures();
      progress.printf(Locale.ROOT, "  %s, %d namenode(s), run %d: %.0f ops/s, %d failures%n", name, namenodes,
          repetition + 1, result.totalOpsPerSecond(), result.totalFailures());
      printBusiest(progress, meter, result.totalOpsPerSecond() * result.measuredSeconds(), "operation");
      progress.flush();
    }
    return new Row(MIX, name, namenodes, throughputs, cpu.secondsByKind(), seconds, failures, operations, database);
  }

  /**
   * {@code seconds} of untimed load on a fresh cluster, half the mix and half create + write, so that the recorded
   * runs measure servers past their JIT warm-up (each fresh JVM compiles the same code again: on the one core the
   * servers share, 3 namenodes compile 3 times what one does). Then more of it, {@value #DRAIN_STEP_SECONDS} s at a
   * time, until every server JVM's JIT compile queue has drained ({@link JitQueues}), for at most
   * {@value #MAX_DRAIN_SECONDS} s: a fixed warm-up left a namenode running mostly interpreted code after 15 minutes.
   * Its files are kept (the cluster is discarded after its recorded runs): deleting them would have the datanodes
   * remove their blocks during the first recorded runs (900 s of warm-up wrote about 25,000 files; their deletion
   * took a fifth of the servers' core for 90 s).
   */
  private static void warmUp(SystemUnderTest system, Configuration conf, MixSettings settings, long seed,
      BenchMode mode, int seconds, CpuPinning pinning, PrintWriter progress) throws IOException {
    if (seconds <= 0) {
      return;
    }
    progress.printf(Locale.ROOT, "  warming %s up for %d s (not recorded)%n", system.name(), seconds);
    progress.flush();
    load(system, conf, settings, seed, mode, seconds, new org.apache.hadoop.fs.Path(WARM_UP_FILES, "0"), pinning,
        progress);
    try {
      for (int step = 1; ; step++) {
        Map<Long, Integer> queues = JitQueues.lengths(system.serverPids());
        int extra = (step - 1) * DRAIN_STEP_SECONDS;
        progress.printf(Locale.ROOT, "  JIT compile queues after %d s more: %s%n", extra, JitQueues.describe(queues));
        progress.flush();
        if (JitQueues.drained(queues)) {
          return;
        }
        if (extra >= MAX_DRAIN_SECONDS) {
          progress.printf(Locale.ROOT, "  JIT compile queues not drained after %d s more: recording anyway%n", extra);
          return;
        }
        load(system, conf, settings, seed - step, mode, DRAIN_STEP_SECONDS,
            new org.apache.hadoop.fs.Path(WARM_UP_FILES, Integer.toString(step)), pinning, progress);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for the JIT queues to drain");
    }
  }

  /** {@code seconds} of untimed load: half the mix, half create + write into {@code files}. */
  private static void load(SystemUnderTest system, Configuration conf, MixSettings settings, long seed,
      BenchMode mode, int seconds, org.apache.hadoop.fs.Path files, CpuPinning pinning, PrintWriter progress)
      throws IOException {
    MixNamespace namespace = MixComparison.loadNamespace(system, settings, conf, progress);
    pinning.pinServers(system.serverPids());
    new MixRunner(URI.create(system.uri()), conf, settings.withWarmup(Duration.ZERO)
        .withDuration(Duration.ofSeconds(Math.max(1, seconds / 2)))).run(namespace, progress, RecordedInterval.NONE);
    Configuration stock = new Configuration(conf);
    stock.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    new CreateWriteRunner(URI.create(system.uri()), stock, mode.writeThreads(), Duration.ZERO,
        Duration.ofSeconds(Math.max(1, seconds - seconds / 2)), seed - 1).run(files, progress, RecordedInterval.NONE);
  }

  private static void printBusiest(PrintWriter progress, Metering meter, double count, String unit) {
    String busiest = meter.busiest(count, 8);
    if (!busiest.isEmpty()) {
      progress.printf(Locale.ROOT, "    transactions (statements) per %s, by namenode operation: %s%n", unit, busiest);
    }
  }

  /** Create + write 4 KB + close, through the stock client whatever the cluster's client configuration names. */
  private static Row measureWrites(String name, int namenodes, SystemUnderTest system, Configuration clusterConf,
      long seed, BenchMode mode, CpuPinning pinning, PrintWriter progress) throws IOException {
    Configuration conf = new Configuration(clusterConf);
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    List<Double> throughputs = new ArrayList<>();
    ServerCpu.Usage cpu = ServerCpu.Usage.NONE;
    OperationMetrics.Snapshot database = OperationMetrics.Snapshot.ZERO;
    double seconds = 0;
    double operations = 0;
    long failures = 0;
    for (int repetition = 0; repetition < mode.repetitions(); repetition++) {
      org.apache.hadoop.fs.Path directory = new org.apache.hadoop.fs.Path(WRITE_BASE, "run-" + (repetition + 1));
      pinning.pinServers(system.serverPids());
      Metering meter = new Metering(system);
      FileRunResult result = new CreateWriteRunner(URI.create(system.uri()), conf, mode.writeThreads(),
          Duration.ofSeconds(mode.writeWarmupSeconds()), Duration.ofSeconds(mode.writeSeconds()), seed + repetition)
          .run(directory, progress, meter);
      seconds += mode.writeSeconds();
      operations += result.filesPerSecond() * mode.writeSeconds();
      cpu = cpu.plus(meter.cpu.usage());
      database = database.plus(meter.database);
      throughputs.add(result.filesPerSecond());
      failures += result.totalFailures();
      progress.printf(Locale.ROOT, "  %s, %d namenode(s), %s, run %d: %.0f files/s, %d failures%n", name, namenodes,
          WRITES, repetition + 1, result.filesPerSecond(), result.totalFailures());
      printBusiest(progress, meter, result.filesPerSecond() * mode.writeSeconds(), "file");
      progress.flush();
      try (FileSystem fs = FileSystem.newInstance(URI.create(system.uri()), conf)) {
        fs.delete(directory, true);
      }
    }
    return new Row(WRITES, name, namenodes, throughputs, cpu.secondsByKind(), seconds, failures, operations,
        database);
  }

  static void write(List<Row> rows, BenchMode mode, long seed, Path out, String command, Instant started)
      throws IOException {
    Map<String, Double> single = new java.util.HashMap<>();
    Map<String, Double> hdfs = new java.util.HashMap<>();
    for (Row row : rows) {
      double median = Spread.of(row.opsPerSecond()).median();
      if (row.system().equals("Canopy") && row.namenodes() == 1) {
        single.put(row.workload(), median);
      } else if (row.system().equals("HDFS")) {
        hdfs.put(row.workload(), median);
      }
    }
    StringBuilder text = new StringBuilder();
    List<String> counts = rows.stream().filter(row -> row.system().equals("Canopy"))
        .map(row -> Integer.toString(row.namenodes())).distinct().toList();
    String countsText = counts.size() <= 1 ? String.join("", counts)
        : String.join(", ", counts.subList(0, counts.size() - 1)) + " and " + counts.get(counts.size() - 1);
    text.append("# Spotify mix and writes with ").append(countsText).append(" namenodes\n\n");
    text.append("Generated by `").append(command).append("` (").append(started).append(", mode ")
        .append(mode.name()).append(", seed ").append(seed).append(", ").append(mode.repetitions())
        .append(" run(s) of ").append(mode.mixSeconds()).append(" s per configuration, ").append(mode.mixThreads())
        .append(" client threads, ").append(DATANODES).append(" datanodes). Servers pinned as in `bench report` "
            + "(one core for all servers, one for the clients, when taskset exists). Clients of a cluster with "
            + "several namenodes use its nameservice: each client thread has its own client and picks its namenode "
            + "through the configured failover proxy provider. The write workload (" + WRITES + " + close, "
            + mode.writeThreads() + " threads, " + mode.writeWarmupSeconds() + " s warm-up then "
            + mode.writeSeconds() + " s per run) uses the stock client, so every file is a datanode block whose "
            + "replicas are reported to every namenode; its throughput is files per second. Per operation (per file "
            + "for the writes): the namenodes' and PostgreSQL's CPU, and the database transactions and statements "
            + "every namenode ran, client calls and datanode reports alike, from their counters (written each "
            + "second, so up to a second off at each end of a run).\n\n");
    text.append("| workload | system | namenodes | ops/s, median (range) | vs 1 namenode | vs HDFS | server CPU, cores | "
        + "where the server CPU went | namenodes µs/op | PostgreSQL µs/op | transactions/op | statements/op | "
        + "failures |\n|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (Row row : rows) {
      Spread spread = Spread.of(row.opsPerSecond());
      double total = row.cpuSeconds().values().stream().mapToDouble(Double::doubleValue).sum();
      StringBuilder shares = new StringBuilder();
      row.cpuSeconds().forEach((kind, value) -> {
        if (shares.length() > 0) {
          shares.append(", ");
        }
        shares.append(kind).append(String.format(Locale.ROOT, " %.0f%%", total > 0 ? 100 * value / total : 0));
      });
      double one = single.getOrDefault(row.workload(), 0.0);
      double reference = hdfs.getOrDefault(row.workload(), 0.0);
      boolean canopy = row.system().equals("Canopy");
      text.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %d |%n",
          row.workload(), row.system(), row.namenodes(), spread.format("%.0f"),
          canopy && one > 0 ? String.format(Locale.ROOT, "%.2f", spread.median() / one) : "",
          reference > 0 ? String.format(Locale.ROOT, "%.2f", spread.median() / reference) : "", row.serverCores(),
          shares, canopy ? String.format(Locale.ROOT, "%.0f", row.micros(CanopySystem.NAMENODES)) : "",
          canopy ? String.format(Locale.ROOT, "%.0f", row.micros(CanopySystem.POSTGRESQL)) : "",
          canopy ? perOperation(row.database().operations(), row.operations()) : "",
          canopy ? perOperation(row.database().statements(), row.operations()) : "", row.failures()));
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, text.toString());
  }

  private static String perOperation(long count, double operations) {
    return operations > 0 ? String.format(Locale.ROOT, "%.1f", count / operations) : "";
  }

  static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
