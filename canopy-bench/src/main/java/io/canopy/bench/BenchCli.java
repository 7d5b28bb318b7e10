package io.canopy.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code canopy bench}: side-by-side benchmarks of Canopy and Apache HDFS on this machine. */
@Command(name = "canopy bench", mixinStandardHelpOptions = true,
    description = {"Side-by-side benchmarks of Canopy and Apache HDFS 3.5.0 on this machine, same run, same client.",
        "Both systems run on 127.0.0.1 with the same datanode count, replication, block size and log level."},
    subcommands = {BenchCli.Report.class, BenchCli.Namenodes.class, BenchCli.Engines.class, BenchCli.FullReport.class,
        BenchCli.ReportStormCommand.class, CommandLine.HelpCommand.class})
public final class BenchCli implements Runnable {
  /** Set by bin/canopy to the repository root. */
  static final String REPOSITORY_PROPERTY = "canopy.repository";

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: report");
  }

  /** Runs every workload on both systems and writes the report. */
  @Command(name = "report", mixinStandardHelpOptions = true,
      description = {"Starts Canopy and HDFS, runs NNThroughputBenchmark (create, mkdirs, open, fileStatus, rename,",
          "delete), the Spotify mix (servers pinned, then unpinned) and its write-heavy variant, and create + write",
          "4 KB + close on both, small files (1 to 64 KB written then read back by Canopy's client, the stock",
          "client on Canopy and on HDFS, and the crossover curve to 1 MB), subtree operations (mv and rm -r of large",
          "directories, clients in the parent and a Spotify mix elsewhere during a big delete), reads the servers'",
          "CPU time per operation from /proc, profiles Canopy's namenode during the mix, and writes the report",
          "(Markdown + PNG charts). Only figures measured in this run appear. Modes: smoke (seconds; proves the",
          "harness works), quick (a few minutes), full (the published one: every figure repeated 3 times, median and range).",
          "Example, the small-files section alone: bin/canopy bench report --mode quick --only small-files"},
      footer = {"", "Exit status: 0 when every run completed without a failed operation, 1 otherwise."})
  static final class Report implements Callable<Integer> {
    @Option(names = "--mode", defaultValue = "quick", paramLabel = "MODE",
        description = "smoke, quick or full (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--out", paramLabel = "FILE",
        description = "Report to write; the charts go next to it (default: docs/benchmarks.md, or "
            + "docs/benchmarks-SECTION.md with --only, so that one section never replaces the whole page).")
    Path out;

    @Option(names = "--only", paramLabel = "SECTION",
        description = "Run only this section (both systems are still started): small-files or subtree.")
    String only;

    @Option(names = "--work", defaultValue = "target/bench", paramLabel = "DIR",
        description = "Scratch directory for both clusters, logs and the profile (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--seed", defaultValue = "20261122", paramLabel = "N",
        description = "Seed of the workloads' randomness, the same for both systems (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      // bin/canopy names the repository: relative paths and the commit are the repository's, wherever it runs from
      Path repository = Path.of(System.getProperty(REPOSITORY_PROPERTY, "")).toAbsolutePath();
      if (only != null && !BenchHarness.SECTIONS.contains(only)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--only: no section '" + only
            + "'; sections that run alone: " + String.join(", ", BenchHarness.SECTIONS));
      }
      out = repository.resolve(out != null ? out : defaultOut(only));
      work = repository.resolve(work);
      PrintWriter progress = spec.commandLine().getOut();
      BenchMode benchMode = BenchMode.named(mode);
      BenchResults results = new BenchHarness(benchMode, work, seed, repository, only).run(progress);
      ReportWriter.write(results, out, "bin/canopy bench report --mode " + benchMode.name() + " --seed " + seed
          + (only == null ? "" : " --only " + only));
      progress.println("Report written to " + out + " (charts next to it)");
      progress.flush();
      return results.failures() == 0 ? 0 : 1;
    }

    static Path defaultOut(String only) {
      return Path.of(only == null ? "docs/benchmarks.md" : "docs/benchmarks-" + only + ".md");
    }
  }

  /** The Spotify mix on Canopy with 1, 2, 3 namenodes and on HDFS; throughput and where server CPU went. */
  @Command(name = "namenodes", mixinStandardHelpOptions = true,
      description = {"Runs the Spotify mix on fresh Canopy clusters with 1, 2 and 3 namenodes (3 datanodes each) and",
          "on HDFS, in one run, and writes a Markdown table: throughput, ratio to one namenode and to HDFS, server",
          "CPU used (cores) and its split between namenodes, database and datanodes.",
          "Example: bin/canopy bench namenodes --mode full"},
      footer = {"", "Exit status: 0 when every run completed without a failed operation, 1 otherwise."})
  static final class Namenodes implements Callable<Integer> {
    @Option(names = "--mode", defaultValue = "quick", paramLabel = "MODE",
        description = "smoke, quick or full (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--counts", defaultValue = "1,2,3", split = ",", paramLabel = "N,N,...",
        description = "Namenode counts to measure (default: ${DEFAULT-VALUE}).")
    List<Integer> counts;

    @Option(names = "--out", defaultValue = "docs/benchmarks-namenodes.md", paramLabel = "FILE",
        description = "Report to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", defaultValue = "target/bench-namenodes", paramLabel = "DIR",
        description = "Scratch directory for the clusters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--seed", defaultValue = "20261122", paramLabel = "N",
        description = "Seed of the workload's randomness, the same for every cluster (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--warmup-seconds", defaultValue = "0", paramLabel = "S",
        description = {"Untimed load on each fresh cluster (Canopy's and HDFS's alike) before its first recorded run,",
            "half the Spotify mix and half create + write, so that the runs measure JVMs past their JIT warm-up",
            "(default: ${DEFAULT-VALUE}: only each run's own warm-up)."})
    int warmupSeconds;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Path repository = Path.of(System.getProperty(REPOSITORY_PROPERTY, "")).toAbsolutePath();
      out = repository.resolve(out);
      work = repository.resolve(work);
      if (warmupSeconds < 0 || warmupSeconds > 3600) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--warmup-seconds: " + warmupSeconds
            + " is outside 0..3600");
      }
      for (int count : counts) {
        if (count < 1 || count > 9) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--counts: " + count
              + " namenodes is outside 1..9");
        }
      }
      PrintWriter progress = spec.commandLine().getOut();
      BenchMode benchMode = BenchMode.named(mode);
      java.time.Instant started = java.time.Instant.now();
      List<NamenodeScaling.Row> rows = NamenodeScaling.run(benchMode, work, seed, counts, warmupSeconds, progress);
      NamenodeScaling.write(rows, benchMode, seed, out, "bin/canopy bench namenodes --mode " + benchMode.name()
          + " --seed " + seed + (counts.equals(List.of(1, 2, 3)) ? "" : " --counts " + counts.stream()
          .map(String::valueOf).collect(java.util.stream.Collectors.joining(",")))
          + (warmupSeconds > 0 ? " --warmup-seconds " + warmupSeconds : ""), started);
      progress.println("Report written to " + out);
      progress.flush();
      return rows.stream().mapToLong(NamenodeScaling.Row::failures).sum() == 0 ? 0 : 1;
    }
  }

  /** The same workloads with the metadata on PostgreSQL and on Ignite with 1 and 3 nodes (issue 18). */
  @Command(name = "engines", mixinStandardHelpOptions = true,
      description = {"Runs NNThroughputBenchmark (create, mkdirs, open, fileStatus, rename, delete) and the Spotify mix",
          "on fresh Canopy clusters (1 namenode, 3 datanodes) whose metadata lives on each engine in turn, and writes",
          "a Markdown report: throughput, ratio to the first engine, and the cost of one operation (transactions,",
          "round trips, statements, server CPU of namenode, database and datanodes) and of each namenode call.",
          "Example: bin/canopy bench engines --engines postgres,ignite:1,ignite:3"},
      footer = {"", "Exit status: 0 when every run completed without a failed operation, 1 otherwise."})
  static final class Engines implements Callable<Integer> {
    @Option(names = "--mode", defaultValue = "quick", paramLabel = "MODE",
        description = "smoke, quick or full (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--engines", defaultValue = "postgres,ignite:1,ignite:3", split = ",",
        paramLabel = "ENGINE,...", description = {"Engines to measure, in order: postgres, or ignite:N for N Apache",
            "Ignite 3 nodes started by canopy up (default: ${DEFAULT-VALUE})."})
    List<String> engines;

    @Option(names = "--out", defaultValue = "docs/benchmarks-engines.md", paramLabel = "FILE",
        description = "Report to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", defaultValue = "target/bench-engines", paramLabel = "DIR",
        description = "Scratch directory for the clusters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--seed", defaultValue = "20261122", paramLabel = "N",
        description = "Seed of the workload's randomness, the same for every cluster (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Path repository = Path.of(System.getProperty(REPOSITORY_PROPERTY, "")).toAbsolutePath();
      out = repository.resolve(out);
      work = repository.resolve(work);
      List<MetadataEngine> parsed = new java.util.ArrayList<>();
      for (String engine : engines) {
        try {
          parsed.add(EngineComparison.parse(engine));
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--engines: " + e.getMessage());
        }
      }
      PrintWriter progress = spec.commandLine().getOut();
      BenchMode benchMode = BenchMode.named(mode);
      java.time.Instant started = java.time.Instant.now();
      List<EngineComparison.EngineRun> runs = EngineComparison.run(benchMode, work, seed, parsed, progress);
      EngineComparison.write(runs, benchMode, seed, out, "bin/canopy bench engines --mode " + benchMode.name()
          + " --seed " + seed + " --engines " + String.join(",", engines), started);
      progress.println("Report written to " + out);
      progress.flush();
      return EngineComparison.failures(runs) == 0 ? 0 : 1;
    }
  }

  /** Full block reports of one large storage on Canopy and on HDFS: unchanged, and with a share changed. */
  @Command(name = "full-report", mixinStandardHelpOptions = true,
      description = {"Fills one datanode's storage (a datanode the benchmark plays over DatanodeProtocol) with BLOCKS",
          "blocks on a fresh Canopy and a fresh HDFS, then times its full block reports: unchanged ones (a restart",
          "on an unchanged disk), then ones lacking a share of the blocks and ones listing them again, with the",
          "servers' CPU and Canopy's database work, and writes a Markdown table. Filling takes minutes (an addBlock",
          "and an incremental report per block). Example: bin/canopy bench full-report --blocks 100000"},
      footer = {"", "Exit status: 0 when every call succeeded."})
  static final class FullReport implements Callable<Integer> {
    @Option(names = "--blocks", defaultValue = "100000", paramLabel = "N",
        description = "Blocks on the datanode's storage (default: ${DEFAULT-VALUE}).")
    int blocks;

    @Option(names = "--reports", defaultValue = "5", paramLabel = "N",
        description = "Timed unchanged reports, and timed pairs of changed ones: lost, then found again (default: "
            + "${DEFAULT-VALUE}).")
    int reports;

    @Option(names = "--changed-percent", defaultValue = "1", paramLabel = "P",
        description = "Share of the blocks a changed report differs by, in percent (default: ${DEFAULT-VALUE}).")
    double changedPercent;

    @Option(names = "--out", defaultValue = "docs/benchmarks-full-report.md", paramLabel = "FILE",
        description = "Report to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", defaultValue = "target/bench-full-report", paramLabel = "DIR",
        description = "Scratch directory for the clusters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--seed", defaultValue = "20261122", paramLabel = "N",
        description = "Seed of the choice of changed blocks (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      if (blocks < 1 || blocks > 10_000_000) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--blocks: " + blocks + " is outside "
            + "1..10000000");
      }
      if (reports < 1 || reports > 100) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--reports: " + reports + " is outside 1..100");
      }
      if (!(changedPercent > 0 && changedPercent <= 100)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--changed-percent: " + changedPercent
            + " is outside (0, 100]");
      }
      Path repository = Path.of(System.getProperty(REPOSITORY_PROPERTY, "")).toAbsolutePath();
      out = repository.resolve(out);
      work = repository.resolve(work);
      PrintWriter progress = spec.commandLine().getOut();
      java.time.Instant started = java.time.Instant.now();
      List<FullReportBench.Outcome> outcomes = FullReportBench.run(work, blocks, reports, changedPercent / 100,
          seed, progress);
      FullReportBench.write(outcomes, blocks, reports, changedPercent / 100, out, "bin/canopy bench full-report "
          + "--blocks " + blocks + " --reports " + reports + " --changed-percent " + changedPercent + " --seed "
          + seed, started);
      progress.println("Report written to " + out);
      progress.flush();
      return 0;
    }
  }

  /** Many datanodes' full reports at once while clients work, on Canopy and on HDFS. */
  @Command(name = "report-storm", mixinStandardHelpOptions = true,
      description = {"Spreads BLOCKS blocks over DATANODES datanodes (played by the benchmark over DatanodeProtocol)",
          "on a fresh Canopy and a fresh HDFS, then has every datanode send a full report at once (each asking for",
          "a full-report lease first, as a stock DataNode does), twice: lacking a share of its blocks, then listing",
          "them again, while client threads call the namenode without pause. Writes the storms' durations and the",
          "clients' latency before and during them as a Markdown table. Filling takes minutes (an addBlock and an",
          "incremental report per block). Example: bin/canopy bench report-storm --datanodes 8 --blocks 100000"},
      footer = {"", "Exit status: 0 when every report was applied (client calls that failed are counted, not fatal)."})
  static final class ReportStormCommand implements Callable<Integer> {
    @Option(names = "--datanodes", defaultValue = "8", paramLabel = "N",
        description = "Datanodes reporting at once (default: ${DEFAULT-VALUE}).")
    int datanodes;

    @Option(names = "--blocks", defaultValue = "100000", paramLabel = "N",
        description = "Blocks over all the datanodes (default: ${DEFAULT-VALUE}).")
    int blocks;

    @Option(names = "--changed-percent", defaultValue = "1", paramLabel = "P",
        description = "Share of each datanode's blocks its first storm report lacks, in percent (default: "
            + "${DEFAULT-VALUE}).")
    double changedPercent;

    @Option(names = "--out", defaultValue = "docs/benchmarks-report-storm.md", paramLabel = "FILE",
        description = "Report to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", defaultValue = "target/bench-report-storm", paramLabel = "DIR",
        description = "Scratch directory for the clusters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--seed", defaultValue = "20261122", paramLabel = "N",
        description = "Seed of the choice of lost blocks (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      if (datanodes < 1 || datanodes > 64) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--datanodes: " + datanodes
            + " is outside 1..64");
      }
      if (blocks < datanodes || blocks > 10_000_000) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--blocks: " + blocks + " is outside "
            + datanodes + "..10000000 (at least one block per datanode)");
      }
      if (!(changedPercent > 0 && changedPercent <= 100)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--changed-percent: " + changedPercent
            + " is outside (0, 100]");
      }
      Path repository = Path.of(System.getProperty(REPOSITORY_PROPERTY, "")).toAbsolutePath();
      out = repository.resolve(out);
      work = repository.resolve(work);
      PrintWriter progress = spec.commandLine().getOut();
      java.time.Instant started = java.time.Instant.now();
      List<ReportStormBench.Outcome> outcomes = ReportStormBench.run(work, datanodes, blocks, changedPercent / 100,
          seed, progress);
      ReportStormBench.write(outcomes, datanodes, blocks, changedPercent / 100, out, "bin/canopy bench "
          + "report-storm --datanodes " + datanodes + " --blocks " + blocks + " --changed-percent " + changedPercent
          + " --seed " + seed, started);
      progress.println("Report written to " + out);
      progress.flush();
      return 0;
    }
  }

  public static void main(String[] args) {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "canopy-bench-cli-log4j.properties");
    }
    System.exit(new CommandLine(new BenchCli()).execute(args));
  }
}
