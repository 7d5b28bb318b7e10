package io.canopy.bench;

import io.canopy.bench.mix.FileRunResult;
import io.canopy.bench.mix.MixResult;
import io.canopy.namenode.tx.OperationMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section on server CPU per operation (the quantity issue 13 drives down) and on the database work
 * of the namenode's main calls, written from one run's results.
 */
final class CpuSection {
  /** The calls a stock client makes most in the mixes, in the order the report lists them. */
  static final List<String> MAIN_CALLS = List.of("getBlockLocations", "getFileInfo", "getListing", "create",
      "addBlock", "complete", "delete", "rename", "mkdirs");

  /** One workload's row: throughputs of both systems and their CPU per operation. */
  record Row(String workload, double canopyThroughput, double hdfsThroughput, ServerCpu.PerOperation canopy,
      ServerCpu.PerOperation hdfs) {
  }

  private CpuSection() {
  }

  static void write(StringBuilder md, BenchResults results) {
    md.append("## Server CPU per operation\n\n");
    md.append("CPU time (user + system) of the server processes, read from `/proc/PID/stat` at the start and at "
        + "the end of each measured interval (NNThroughputBenchmark: its timed phase, not the creation of the files "
        + "open, fileStatus, rename and delete work on; the mixes and create + write: the recorded part after the "
        + "warm-up) and divided by the operations completed in it, in microseconds per operation (median over the "
        + "runs). A process's figure is its own time and its reaped children's, summed over its process tree, so "
        + "PostgreSQL is the postmaster and every backend, whether or not it lived through the interval. Canopy "
        + "total also counts the idle JVM that launched PostgreSQL. HDFS is one JVM: MiniDFSCluster runs the "
        + "namenode and the datanodes in the same process, so its figure includes the datanodes' work. Every thread "
        + "of a process counts, the JVMs' compiler and garbage collector included: in short runs (quick mode) the "
        + "warm-up compilation of fresh JVMs is a visible part. Unpinned: "
        + "servers and clients free to use every CPU; every other row ran with the servers pinned as described in "
        + "Setup.\n\n");
    md.append("| workload | Canopy / HDFS throughput | Canopy namenode µs | PostgreSQL µs | Canopy datanodes µs | "
        + "Canopy total µs | HDFS µs | Canopy / HDFS CPU |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Row row : rows(results)) {
      md.append(format(row)).append('\n');
    }
    md.append('\n');
    mainCalls(md, results.mixes().get(0));
  }

  static List<Row> rows(BenchResults results) {
    List<Row> rows = new ArrayList<>();
    for (NnThroughputComparison.Row nn : results.nnThroughput()) {
      rows.add(new Row("NNTB " + nn.operation(), nn.canopy().median(), nn.hdfs().median(), nn.canopyCpu(),
          nn.hdfsCpu()));
    }
    List<MixComparison.Outcome> mixes = new ArrayList<>(results.mixes());
    mixes.add(1, results.spotifyUnpinned()); // next to the pinned Spotify mix
    for (MixComparison.Outcome mix : mixes) {
      rows.add(new Row(mix.workload(), ReportWriter.median(mix.canopy(), MixResult::totalOpsPerSecond),
          ReportWriter.median(mix.hdfs(), MixResult::totalOpsPerSecond), mix.canopyCpuPerOperation(),
          mix.hdfsCpuPerOperation()));
    }
    CreateWriteComparison.Outcome write = results.createWrite();
    rows.add(new Row("create + write 4 KB + close (per file)", ReportWriter.median(write.canopy(),
        FileRunResult::filesPerSecond), ReportWriter.median(write.hdfs(), FileRunResult::filesPerSecond),
        write.canopyCpuPerFile(), write.hdfsCpuPerFile()));
    return rows;
  }

  /** One table line: the throughput ratio, Canopy's CPU per operation by kind and in total, HDFS's. */
  static String format(Row row) {
    return String.format(Locale.ROOT, "| %s | %.2f | %s | %s | %s | %s | %s | %.2f |", row.workload(),
        row.canopyThroughput() / row.hdfsThroughput(), micros(row.canopy().micros(CanopySystem.NAMENODES)),
        micros(row.canopy().micros(CanopySystem.POSTGRESQL)), micros(row.canopy().micros(CanopySystem.DATANODES)),
        micros(row.canopy().medianTotalMicros()), micros(row.hdfs().medianTotalMicros()),
        row.canopy().medianTotalMicros() / row.hdfs().medianTotalMicros());
  }

  private static String micros(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.0f", value);
  }

  /** Round trips and statements per call of the main calls, from the namenode's counters. */
  static void mainCalls(StringBuilder md, MixComparison.Outcome spotify) {
    md.append("Database round trips and statements per call of the main calls in the ").append(spotify.workload())
        .append(" runs on Canopy (the namenode's own counters, warm-up included; a round trip may carry several "
            + "pipelined statements, the commit included):\n\n");
    md.append("| call | calls | round trips per call | statements per call |\n|---|---:|---:|---:|\n");
    Map<String, OperationMetrics.Snapshot> counters = spotify.canopyStatements();
    for (String call : MAIN_CALLS) {
      OperationMetrics.Snapshot snapshot = counters.getOrDefault(call, OperationMetrics.Snapshot.ZERO);
      md.append(snapshot.operations() == 0 ? "| " + call + " | 0 | – | – |"
          : String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f |", call, snapshot.operations(),
              snapshot.roundTripsPerOperation(), snapshot.statementsPerOperation())).append('\n');
    }
    md.append('\n');
  }
}
