package io.canopy.bench;

import io.canopy.bench.SmallFilesComparison.Cell;
import io.canopy.bench.SmallFilesComparison.Client;
import io.canopy.bench.SmallFilesComparison.Outcome;
import io.canopy.bench.SmallFilesComparison.Target;
import io.canopy.bench.mix.FileRunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's small-files section, written from one run's {@link Outcome}: the per-size table of the three
 * clients, the ratios to HDFS, issue 15's targets met or missed, and the crossover curve (chart and table).
 */
final class SmallFilesSection {
  static final String NOT_AVAILABLE = "not available in this build";

  private SmallFilesSection() {
  }

  static void write(StringBuilder md, Outcome outcome, String crossoverChart) {
    BenchMode.SmallFiles settings = outcome.settings();
    md.append("## Small files: create + write + close, then open + read + close\n\n");
    md.append(String.format(Locale.ROOT, "Per size and client: a write phase (%d threads, each with its own client "
        + "and connection, create a new file, write its bytes, close it, all in one directory per run), then a "
        + "read phase over the files that phase wrote (open, read to the end, close; every byte is compared with "
        + "the file's own deterministic content, and a file that differs is a failed read). Each phase: %.1f s "
        + "warm-up, then %.1f s measured; %s. Latency is one whole file, in ms; server CPU is every server process's "
        + "CPU time over the measured phase per file (Canopy: namenode, PostgreSQL, datanodes; HDFS: its one JVM). "
        + "Clients: Canopy's client (`fs.hdfs.impl` = `%s`), the stock `DistributedFileSystem` against Canopy, and "
        + "the stock client against HDFS. The order of the clients alternates from size to size.%n%n",
        settings.threads(), settings.warmupMs() / 1000.0, settings.measuredMs() / 1000.0,
        outcome.repetitions() == 1 ? "one run" : "median of " + outcome.repetitions() + " runs",
        SmallFilesComparison.CANOPY_FILE_SYSTEM));
    if (outcome.canopyClientMissing() != null) {
      md.append("Canopy client: ").append(NOT_AVAILABLE).append(" (").append(outcome.canopyClientMissing())
          .append(").\n\n");
    }
    table(md, outcome);
    ratios(md, outcome);
    targets(md, outcome);
    crossover(md, outcome, crossoverChart);
    failures(md, outcome);
  }

  private static void table(StringBuilder md, Outcome outcome) {
    md.append("| size | client | write files/s | write p50 | write p90 | write p99 | read files/s | read p50 | "
        + "read p90 | read p99 | server CPU per written file, µs | per read file, µs | failed files |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int kb : SmallFilesComparison.TABLE_KB) {
      for (Client client : Client.values()) {
        Cell cell = Outcome.cell(outcome.table(), client, kb);
        md.append("| ").append(size(kb)).append(" | ").append(client.label).append(" | ");
        if (cell == null) {
          md.append(NOT_AVAILABLE).append(" | | | | | | | | | | |\n");
          continue;
        }
        md.append(String.format(Locale.ROOT, "%.0f | %.1f | %.1f | %.1f | %.0f | %.2f | %.2f | %.2f | %s | %s | %d |%n",
            cell.writes(FileRunResult::filesPerSecond), cell.writes(run -> run.latency().p50Ms()),
            cell.writes(run -> run.latency().p90Ms()), cell.writes(run -> run.latency().p99Ms()),
            cell.reads(FileRunResult::filesPerSecond), cell.reads(run -> run.latency().p50Ms()),
            cell.reads(run -> run.latency().p90Ms()), cell.reads(run -> run.latency().p99Ms()),
            micros(cell.writeCpuMicrosPerFile()), micros(cell.readCpuMicrosPerFile()), cell.failures()));
      }
    }
    md.append('\n');
  }

  private static void ratios(StringBuilder md, Outcome outcome) {
    md.append("Ratios to HDFS (throughput: Canopy / HDFS; p90 latency: HDFS / Canopy; above 1 Canopy is better):\n\n");
    md.append("| size | ").append(Client.CANOPY_CLIENT.label).append(": write files/s | read files/s | write p90 | "
        + "read p90 | ").append(Client.STOCK_CANOPY.label).append(": write files/s | read files/s | write p90 | "
        + "read p90 | ").append(Client.STOCK_READS_SMALL.label).append(": write files/s | read files/s | write p90 | "
        + "read p90 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int kb : SmallFilesComparison.TABLE_KB) {
      md.append("| ").append(size(kb));
      for (Client client : List.of(Client.CANOPY_CLIENT, Client.STOCK_CANOPY, Client.STOCK_READS_SMALL)) {
        md.append(" | ").append(ratio(outcome.writeRatio(client, kb))).append(" | ")
            .append(ratio(outcome.readRatio(client, kb))).append(" | ")
            .append(ratio(outcome.writeP90Ratio(client, kb))).append(" | ")
            .append(ratio(outcome.readP90Ratio(client, kb)));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private static void targets(StringBuilder md, Outcome outcome) {
    md.append("Issue 15's targets, measured in this run:\n\n| target | measured | goal | |\n|---|---:|---:|---|\n");
    for (Target target : outcome.targets()) {
      String measured = !Double.isNaN(target.ratio()) ? ratio(target.ratio())
          : target.measure().startsWith(Client.CANOPY_CLIENT.label) && outcome.canopyClientMissing() != null
              ? NOT_AVAILABLE : "not measured";
      md.append("| ").append(target.measure()).append(" | ").append(measured).append(" | >= ")
          .append(String.format(Locale.ROOT, "%.0f", target.goal())).append(" | ")
          .append(Double.isNaN(target.ratio()) ? "–" : target.met() ? "met" : "missed").append(" |\n");
    }
    md.append('\n');
  }

  private static void crossover(StringBuilder md, Outcome outcome, String chart) {
    BenchMode.SmallFiles settings = outcome.settings();
    String canopy = outcome.crossoverClient().label;
    md.append("### Crossover, 1 KB to 1 MB\n\n");
    md.append(String.format(Locale.ROOT, "The same two phases at every size from 1 KB to 1 MB (as Figure 11 of "
        + "docs/references.md [SmallFiles] does), %s against the stock client on HDFS: %d threads, %.1f s warm-up and %.1f s measured per "
        + "phase, one run. Bars: throughput Canopy / HDFS, writes then reads; where they cross 1.0, HDFS starts to "
        + "win.%n%n", canopy, settings.crossoverThreads(), settings.crossoverWarmupMs() / 1000.0,
        settings.crossoverMeasuredMs() / 1000.0));
    md.append("![Small files crossover](").append(chart).append(")\n\n");
    md.append("| size | ").append(canopy).append(" write files/s | HDFS write files/s | Canopy / HDFS | ")
        .append(canopy).append(" read files/s | HDFS read files/s | Canopy / HDFS |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int kb : SmallFilesComparison.CROSSOVER_KB) {
      Cell mine = Outcome.cell(outcome.crossover(), outcome.crossoverClient(), kb);
      Cell hdfs = Outcome.cell(outcome.crossover(), Client.STOCK_HDFS, kb);
      double canopyWrites = mine.writes(FileRunResult::filesPerSecond);
      double hdfsWrites = hdfs.writes(FileRunResult::filesPerSecond);
      double canopyReads = mine.reads(FileRunResult::filesPerSecond);
      double hdfsReads = hdfs.reads(FileRunResult::filesPerSecond);
      md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %s | %.0f | %.0f | %s |%n", size(kb), canopyWrites,
          hdfsWrites, ratio(canopyWrites / hdfsWrites), canopyReads, hdfsReads, ratio(canopyReads / hdfsReads)));
    }
    md.append('\n');
  }

  /** The crossover chart's bars: writes at every size, then reads. */
  static List<RatioChart.Bar> crossoverBars(Outcome outcome) {
    List<RatioChart.Bar> bars = new ArrayList<>();
    for (String phase : List.of("write", "read")) {
      for (int kb : SmallFilesComparison.CROSSOVER_KB) {
        double ratio = SmallFilesComparison.Outcome.ratio(outcome.crossover(), outcome.crossoverClient(), kb,
            cell -> phase.equals("write") ? cell.writes(FileRunResult::filesPerSecond)
                : cell.reads(FileRunResult::filesPerSecond));
        // a side with no file done has no ratio: a zero bar (the run has failed files and exits non-zero anyway)
        bars.add(new RatioChart.Bar(phase + " " + size(kb), Double.isFinite(ratio) ? ratio : 0));
      }
    }
    return bars;
  }

  private static void failures(StringBuilder md, Outcome outcome) {
    List<String> messages = new ArrayList<>();
    for (List<Cell> cells : List.of(outcome.table(), outcome.crossover())) {
      for (Cell cell : cells) {
        cell.runs().forEach(run -> {
          messages.addAll(run.write().firstFailures());
          messages.addAll(run.read().firstFailures());
        });
      }
    }
    md.append("Failed files in the whole section: ").append(outcome.failures()).append(messages.isEmpty() ? ".\n\n"
        : "; the first messages:\n\n");
    messages.stream().limit(20).forEach(message -> md.append("- `").append(message).append("`\n"));
    if (!messages.isEmpty()) {
      md.append('\n');
    }
  }

  static String size(int kb) {
    return kb >= 1024 && kb % 1024 == 0 ? kb / 1024 + " MB" : kb + " KB";
  }

  /** A ratio; "–" when a side was not measured or did no file in its recorded part. */
  private static String ratio(double value) {
    return !Double.isFinite(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
  }

  private static String micros(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.0f", value);
  }
}
