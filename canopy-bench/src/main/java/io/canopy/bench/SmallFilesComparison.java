package io.canopy.bench;

import io.canopy.bench.mix.FileRunResult;
import io.canopy.bench.mix.RecordedInterval;
import io.canopy.bench.mix.SmallFilesRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Small files side by side (issue 15): at 1, 4, 16 and 64 KB, writes (create + write + close) then reads of the
 * files written (open + read + close, every byte checked) by Canopy's client and the stock client against Canopy and
 * by the stock client against HDFS; then the crossover curve from 1 KB to 1 MB, Canopy's client (the stock one when
 * this build has none) against HDFS. Clients alternate in order from size to size and repetition to repetition; the
 * servers' CPU time is read over each recorded phase of the table.
 */
final class SmallFilesComparison {
  static final List<Integer> TABLE_KB = List.of(1, 4, 16, 64);
  static final List<Integer> CROSSOVER_KB = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
  /** Canopy's FileSystem for hdfs:// (canopy-client); a build without it has no "Canopy client" figures. */
  static final String CANOPY_FILE_SYSTEM = "io.canopy.client.CanopyFileSystem";
  /** The size issue 15's targets name. */
  static final int TARGET_KB = 4;
  /** Each run writes into its own directory under this one, deleted after the run (untimed). */
  static final String BASE = "/canopy-bench/small-files";

  /** Who reads and writes: the label is the report's. */
  enum Client {
    CANOPY_CLIENT("Canopy client"), STOCK_CANOPY("stock client → Canopy"),
    /** A stock client reading the files Canopy's client wrote (stored in the database): its writes are Canopy's. */
    STOCK_READS_SMALL("stock client → Canopy, reading Canopy client's files"), STOCK_HDFS("stock client → HDFS");

    final String label;

    Client(String label) {
      this.label = label;
    }
  }

  /** One size and client over the repetitions: both phases of each run and the servers' CPU of each phase. */
  record Cell(int fileBytes, Client client, List<SmallFilesRunner.Result> runs, List<ServerCpu.Usage> writeCpu,
      List<ServerCpu.Usage> readCpu) {
    double writes(ToDoubleFunction<FileRunResult> figure) {
      return ReportWriter.median(runs, run -> figure.applyAsDouble(run.write()));
    }

    double reads(ToDoubleFunction<FileRunResult> figure) {
      return ReportWriter.median(runs, run -> figure.applyAsDouble(run.read()));
    }

    long failures() {
      return runs.stream().mapToLong(SmallFilesRunner.Result::failures).sum();
    }

    /** Median server CPU per written file, µs; NaN without CPU figures or files. */
    double writeCpuMicrosPerFile() {
      return cpuPerFile(writeCpu, SmallFilesRunner.Result::write);
    }

    double readCpuMicrosPerFile() {
      return cpuPerFile(readCpu, SmallFilesRunner.Result::read);
    }

    private double cpuPerFile(List<ServerCpu.Usage> usages, java.util.function.Function<SmallFilesRunner.Result,
        FileRunResult> phase) {
      List<Double> perFile = new ArrayList<>();
      for (int run = 0; run < Math.min(usages.size(), runs.size()); run++) {
        long files = phase.apply(runs.get(run)).files();
        if (files > 0) {
          perFile.add(usages.get(run).totalMicrosPerOperation(files));
        }
      }
      return perFile.isEmpty() ? Double.NaN : Spread.of(perFile).median();
    }
  }

  /** A goal of issue 15: {@code ratio} (NaN: not measured) must reach {@code goal}. */
  record Target(String measure, double ratio, double goal) {
    boolean met() {
      return ratio >= goal; // false for NaN
    }
  }

  /**
   * Everything the section measured.
   *
   * @param canopyClientMissing why this build has no Canopy client, or null when it has one
   * @param crossoverClient the Canopy side of the crossover curve
   */
  record Outcome(BenchMode.SmallFiles settings, int repetitions, String canopyClientMissing, List<Cell> table,
      Client crossoverClient, List<Cell> crossover) {
    long failures() {
      long failures = 0;
      for (Cell cell : table) {
        failures += cell.failures();
      }
      for (Cell cell : crossover) {
        failures += cell.failures();
      }
      return failures;
    }

    /** Median writes/s of {@code client} over HDFS's at {@code kb}: above 1 Canopy is faster. */
    double writeRatio(Client client, int kb) {
      return ratio(table, client, kb, cell -> cell.writes(FileRunResult::filesPerSecond));
    }

    double readRatio(Client client, int kb) {
      return ratio(table, client, kb, cell -> cell.reads(FileRunResult::filesPerSecond));
    }

    /** HDFS's median write p90 over {@code client}'s: above 1 Canopy's is lower. */
    double writeP90Ratio(Client client, int kb) {
      return 1 / ratio(table, client, kb, cell -> cell.writes(run -> run.latency().p90Ms()));
    }

    double readP90Ratio(Client client, int kb) {
      return 1 / ratio(table, client, kb, cell -> cell.reads(run -> run.latency().p90Ms()));
    }

    /** Issue 15's goals, in the report's order. */
    List<Target> targets() {
      List<Target> targets = new ArrayList<>();
      String canopy = Client.CANOPY_CLIENT.label + ", " + TARGET_KB + " KB ";
      targets.add(new Target(canopy + "writes: throughput, Canopy / HDFS", writeRatio(Client.CANOPY_CLIENT,
          TARGET_KB), 10));
      targets.add(new Target(canopy + "writes: p90 latency, HDFS / Canopy", writeP90Ratio(Client.CANOPY_CLIENT,
          TARGET_KB), 5));
      targets.add(new Target(canopy + "reads: throughput, Canopy / HDFS", readRatio(Client.CANOPY_CLIENT,
          TARGET_KB), 3));
      targets.add(new Target(canopy + "reads: p90 latency, HDFS / Canopy", readP90Ratio(Client.CANOPY_CLIENT,
          TARGET_KB), 2));
      // stock clients reading small files from Canopy (those Canopy's client stored in the database, when this build
      // has it): no worse than HDFS
      Client stockReader = canopyClientMissing == null ? Client.STOCK_READS_SMALL : Client.STOCK_CANOPY;
      for (int kb : TABLE_KB) {
        String stock = stockReader.label + ", " + kb + " KB reads: ";
        targets.add(new Target(stock + "throughput, Canopy / HDFS", readRatio(stockReader, kb), 1));
        targets.add(new Target(stock + "p90 latency, HDFS / Canopy", readP90Ratio(stockReader, kb), 1));
      }
      return targets;
    }

    static Cell cell(List<Cell> cells, Client client, int kb) {
      for (Cell cell : cells) {
        if (cell.client() == client && cell.fileBytes() == kb * 1024) {
          return cell;
        }
      }
      return null;
    }

    /** {@code client}'s figure over HDFS's; NaN when either was not measured. */
    static double ratio(List<Cell> cells, Client client, int kb, ToDoubleFunction<Cell> figure) {
      Cell canopy = cell(cells, client, kb);
      Cell hdfs = cell(cells, Client.STOCK_HDFS, kb);
      return canopy == null || hdfs == null ? Double.NaN : figure.applyAsDouble(canopy) / figure.applyAsDouble(hdfs);
    }
  }

  private SmallFilesComparison() {
  }

  /** Why this build cannot run Canopy's client, or null when it can. */
  static String canopyClientMissing() {
    try {
      Class.forName(CANOPY_FILE_SYSTEM, false, SmallFilesComparison.class.getClassLoader());
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return CANOPY_FILE_SYSTEM + " is not on the class path (" + e + ")";
    }
  }

  /** What one part of the section runs: which sizes, how many threads, how long, how often, CPU read or not. */
  private record Plan(List<Integer> sizesKb, int threads, Duration warmup, Duration measured, int repetitions,
      boolean meterCpu) {
  }

  static Outcome run(BenchMode mode, SystemUnderTest canopy, SystemUnderTest hdfs, Configuration conf, long seed,
      PrintWriter progress) throws IOException {
    BenchMode.SmallFiles settings = mode.smallFiles();
    String missing = canopyClientMissing();
    Map<Client, SystemUnderTest> systems = new EnumMap<>(Client.class);
    if (missing == null) {
      systems.put(Client.CANOPY_CLIENT, canopy);
      systems.put(Client.STOCK_READS_SMALL, canopy);
    } else {
      progress.println("  Canopy client: not available in this build: " + missing);
    }
    systems.put(Client.STOCK_CANOPY, canopy);
    systems.put(Client.STOCK_HDFS, hdfs);
    List<Cell> table = measure(systems, new Plan(TABLE_KB, settings.threads(), Duration.ofMillis(settings.warmupMs()),
        Duration.ofMillis(settings.measuredMs()), mode.repetitions(), true), conf, seed, progress);
    Client crossoverClient = missing == null ? Client.CANOPY_CLIENT : Client.STOCK_CANOPY;
    Map<Client, SystemUnderTest> crossoverSystems = new EnumMap<>(Client.class);
    crossoverSystems.put(crossoverClient, canopy);
    crossoverSystems.put(Client.STOCK_HDFS, hdfs);
    progress.println("  crossover curve, " + crossoverClient.label + " and HDFS, 1 KB to 1 MB:");
    List<Cell> crossover = measure(crossoverSystems, new Plan(CROSSOVER_KB, settings.crossoverThreads(),
        Duration.ofMillis(settings.crossoverWarmupMs()), Duration.ofMillis(settings.crossoverMeasuredMs()), 1, false),
        conf, seed, progress);
    return new Outcome(settings, mode.repetitions(), missing, table, crossoverClient, crossover);
  }

  /** Every size on every client, {@code plan.repetitions()} times; the clients' order alternates. */
  private static List<Cell> measure(Map<Client, SystemUnderTest> systems, Plan plan, Configuration conf, long seed,
      PrintWriter progress) throws IOException {
    List<Client> clients = new ArrayList<>(systems.keySet());
    Map<Client, SmallFilesRunner> runners = new EnumMap<>(Client.class);
    List<Cell> cells = new ArrayList<>();
    try {
      for (Client client : clients) {
        SmallFilesRunner runner = SmallFilesRunner.connect(URI.create(systems.get(client).uri()),
            configuration(client, conf), plan.threads(), progress);
        runners.put(client, runner);
        String expected = fileSystemClass(client);
        if (!runner.clientClass().equals(expected)) { // the figures must be of the client their row names
          throw new IllegalStateException(client.label + " is " + runner.clientClass() + ", not " + expected
              + ": check fs.hdfs.impl in the client configuration");
        }
        for (int kb : plan.sizesKb()) {
          cells.add(new Cell(kb * 1024, client, new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
        }
      }
      for (int repetition = 0; repetition < plan.repetitions(); repetition++) {
        for (int size = 0; size < plan.sizesKb().size(); size++) {
          for (int index : BenchMode.alternatingOrder(repetition + size, clients.size())) {
            Client client = clients.get(index);
            SmallFilesRunner writers = client == Client.STOCK_READS_SMALL ? runners.get(Client.CANOPY_CLIENT)
                : runners.get(client);
            runOnce(cells.get(index * plan.sizesKb().size() + size), runners.get(client), writers,
                systems.get(client), plan, repetition, seed, progress);
          }
        }
      }
    } finally {
      runners.values().forEach(SmallFilesRunner::close);
    }
    return cells;
  }

  private static void runOnce(Cell cell, SmallFilesRunner runner, SmallFilesRunner writers, SystemUnderTest system,
      Plan plan, int repetition, long seed, PrintWriter progress) throws IOException {
    Path directory = new Path(BASE, cell.client().name().toLowerCase(Locale.ROOT) + "/" + plan.threads()
        + "-threads-" + cell.fileBytes() + "-bytes-run-" + (repetition + 1));
    ServerCpu.Meter writeMeter = plan.meterCpu() ? new ServerCpu.Meter(system.serverCpuRoots()) : null;
    ServerCpu.Meter readMeter = plan.meterCpu() ? new ServerCpu.Meter(system.serverCpuRoots()) : null;
    SmallFilesRunner.Result result = runner.run(directory, cell.fileBytes(), plan.warmup(), plan.measured(),
        seed + repetition, plan.meterCpu() ? writeMeter : RecordedInterval.NONE,
        plan.meterCpu() ? readMeter : RecordedInterval.NONE, writers);
    cell.runs().add(result);
    if (plan.meterCpu()) {
      cell.writeCpu().add(writeMeter.usage());
      // a read phase that never ran (nothing was written) has no interval
      cell.readCpu().add(result.read().files() > 0 ? readMeter.usage() : ServerCpu.Usage.NONE);
    }
    progress.printf(Locale.ROOT, "  %s, %s, run %d: writes %.0f files/s (p90 %.1f ms), reads %.0f files/s "
        + "(p90 %.2f ms), %d failures%n", cell.client().label, SmallFilesSection.size(cell.fileBytes() / 1024),
        repetition + 1, result.write().filesPerSecond(), result.write().latency().p90Ms(),
        result.read().filesPerSecond(), result.read().latency().p90Ms(), result.failures());
    List<String> messages = new ArrayList<>(result.write().firstFailures());
    messages.addAll(result.read().firstFailures());
    messages.forEach(message -> progress.println("  FAILED: " + message));
    progress.flush();
  }

  /**
   * The client's configuration: {@code base} with the client's FileSystem for hdfs:// named, Canopy's or the stock
   * one (named too, so that a Canopy client configuration on the class path cannot turn a stock row into Canopy's).
   */
  static Configuration configuration(Client client, Configuration base) {
    Configuration conf = new Configuration(base);
    conf.set("fs.hdfs.impl", fileSystemClass(client));
    return conf;
  }

  static String fileSystemClass(Client client) {
    return client == Client.CANOPY_CLIENT ? CANOPY_FILE_SYSTEM : DistributedFileSystem.class.getName();
  }
}
