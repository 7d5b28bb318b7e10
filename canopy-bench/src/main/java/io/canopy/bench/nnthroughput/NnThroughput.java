package io.canopy.bench.nnthroughput;

import io.canopy.bench.ServerCpu;
import io.canopy.bench.hdfs.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs Hadoop's NNThroughputBenchmark (hadoop-hdfs test jar) in remote mode against a namenode, one operation per
 * run, in a child JVM (this JVM's java and class path), and reads its figures.
 *
 * <p>The command line is {@code -fs URI [-D key=value ...] -op OP -threads T -files N -baseDirName D} ({@code -dirs}
 * instead of {@code -files} for mkdirs). {@code open}, {@code fileStatus}, {@code rename} and {@code delete} create
 * their N files first in the same run (untimed) and then time the operation on them; each run uses its own base
 * directory ({@code /nnThroughputBenchmark/RUN-ID}) and the benchmark deletes what it made there at the end.
 * Never {@code -keepResults}: that enters safe mode and saves the namespace.
 *
 * <p>A worker whose RPC fails makes NNThroughputBenchmark spin forever: the run is killed as soon as its output
 * shows a failed worker, or else after the timeout, and either way this throws with the end of the output.
 */
public final class NnThroughput {
  /** The operations this runner knows, in NNThroughputBenchmark's names. */
  public static final List<String> OPERATIONS = List.of("create", "mkdirs", "open", "fileStatus", "rename", "delete");
  /** Heap of the benchmark JVM; its inputs are file names, so modest. */
  public static final String DEFAULT_HEAP = "-Xmx1g";
  /** Each run works in BASE_DIR_PARENT/RUN-ID/OP, so runs never see each other's files. */
  public static final String BASE_DIR_PARENT = "/nnThroughputBenchmark";
  private static final int TAIL_LINES = 60;
  private static final String SERVER_CPU_OPTION = "-D" + TimedPhaseCpu.ROOTS_PROPERTY + "=";
  private static final int STACK_LINES = 30;
  private static final AtomicLong RUNS = new AtomicLong();
  private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
  /** NNThroughputBenchmark logs this when a worker's call threw; the run then never ends by itself. */
  private static final Pattern WORKER_FAILED = Pattern.compile("StatsDaemon \\d+ failed");

  private NnThroughput() {
  }

  /** Runs {@code op} with {@code threads} threads and {@code opsCount} operations; see the class comment. */
  public static NnThroughputResult run(String fsUri, String op, int threads, int opsCount, Map<String, String> conf,
      Duration timeout, Path workDir) throws IOException {
    return run(fsUri, op, threads, opsCount, conf, timeout, workDir, List.of(), List.of());
  }

  /**
   * As {@link #run(String, String, int, int, Map, Duration, Path)}, the java command prefixed by
   * {@code commandPrefix} (e.g. {@code taskset -c 1}).
   */
  public static NnThroughputResult run(String fsUri, String op, int threads, int opsCount, Map<String, String> conf,
      Duration timeout, Path workDir, List<String> commandPrefix) throws IOException {
    return run(fsUri, op, threads, opsCount, conf, timeout, workDir, commandPrefix, List.of());
  }

  /**
   * As {@link #run(String, String, int, int, Map, Duration, Path, List)}, with extra options for the benchmark JVM
   * (after the default heap {@value #DEFAULT_HEAP}, which they can override).
   */
  public static NnThroughputResult run(String fsUri, String op, int threads, int opsCount, Map<String, String> conf,
      Duration timeout, Path workDir, List<String> commandPrefix, List<String> jvmOptions) throws IOException {
    if (!OPERATIONS.contains(op)) {
      throw new IllegalArgumentException("unknown NNThroughputBenchmark operation '" + op + "'; one of "
          + OPERATIONS);
    }
    if (threads < 1 || opsCount < 1) {
      throw new IllegalArgumentException("threads and opsCount must be >= 1, got " + threads + " and " + opsCount);
    }
    Path dir = workDir.toAbsolutePath();
    Files.createDirectories(dir);
    String runId = LocalDateTime.now().format(RUN_ID) + "-" + ProcessHandle.current().pid() + "-"
        + RUNS.incrementAndGet();
    Path log = dir.resolve("nnthroughput-" + op + "-" + runId + ".log");
    List<String> arguments = arguments(fsUri, op, threads, opsCount, conf, BASE_DIR_PARENT + "/" + runId);
    List<String> options = new ArrayList<>();
    // The benchmark writes (empty) hosts files under hadoop.tmp.dir before it parses -D options; a system
    // property reaches that early code (and keeps /tmp/hadoop-USER out of it).
    options.add("-Dhadoop.tmp.dir=" + dir.resolve("hadoop-tmp"));
    options.addAll(jvmOptions);
    List<String> command = ChildJvm.javaCommand(commandPrefix, DEFAULT_HEAP, options,
        NnThroughputMain.class.getName(), arguments);
    Files.writeString(log, "==== canopy bench: NNThroughputBenchmark " + String.join(" ", arguments) + "\n",
        StandardCharsets.UTF_8);
    long started = System.nanoTime();
    ChildJvm child = ChildJvm.start(command, log, dir);
    try {
      awaitEnd(child, op, timeout, log, arguments);
    } catch (IOException | RuntimeException | Error e) {
      child.kill();
      throw e;
    }
    String output = Files.readString(log, StandardCharsets.ISO_8859_1);
    int status = child.process().exitValue();
    if (status != 0) {
      throw new NnThroughputException(describe(op, fsUri) + " exited with status " + status + " after "
          + seconds(started) + "; " + log + " ends with:\n" + child.tail(TAIL_LINES), false, log, child.pid());
    }
    NnThroughputResult result = parse(op, threads, output).orElseThrow(() -> new NnThroughputException(
        describe(op, fsUri) + " exited 0 but printed no '--- " + op + " stats ---' figures; " + log
            + " ends with:\n" + child.tail(TAIL_LINES), false, log, child.pid()));
    if (jvmOptions.stream().anyMatch(option -> option.startsWith(SERVER_CPU_OPTION))
        && result.serverCpu().secondsByKind().isEmpty()) {
      throw new NnThroughputException(describe(op, fsUri) + " did not print the servers' CPU time of its timed "
          + "phase ('" + TimedPhaseCpu.LINE_PREFIX + "'); " + log + " ends with:\n" + child.tail(TAIL_LINES), false,
          log, child.pid());
    }
    if (result.operations() != opsCount) {
      throw new NnThroughputException(describe(op, fsUri) + " executed " + result.operations() + " operations, "
          + opsCount + " asked for; " + log + " ends with:\n" + child.tail(TAIL_LINES), false, log, child.pid());
    }
    return result;
  }

  /**
   * The benchmark-JVM option (for {@code jvmOptions}) that makes a run measure the CPU time of these server
   * process trees over its timed phase (see {@link TimedPhaseCpu}); the run then fails if it printed none.
   */
  public static String serverCpuOption(Map<String, List<Long>> rootsByKind) {
    return SERVER_CPU_OPTION + TimedPhaseCpu.format(rootsByKind);
  }

  /** The benchmark's arguments for one run (generic options first: ToolRunner stops at the first other one). */
  public static List<String> arguments(String fsUri, String op, int threads, int opsCount, Map<String, String> conf,
      String baseDirName) {
    List<String> arguments = new ArrayList<>(List.of("-fs", fsUri));
    conf.forEach((key, value) -> {
      arguments.add("-D");
      arguments.add(key + "=" + value);
    });
    arguments.addAll(List.of("-op", op, "-threads", Integer.toString(threads),
        op.equals("mkdirs") ? "-dirs" : "-files", Integer.toString(opsCount), "-baseDirName", baseDirName));
    return arguments;
  }

  private static void awaitEnd(ChildJvm child, String op, Duration timeout, Path log, List<String> arguments)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long scanned = 0;
    try {
      while (!child.awaitExit(Duration.ofMillis(200))) {
        long size = Files.size(log);
        if (size > scanned) {
          // Look from a little before the last scan on, so a line written in two pieces is still seen.
          long from = Math.max(0, scanned - 256);
          scanned = size;
          if (WORKER_FAILED.matcher(ChildJvm.readRange(log, from, size)).find()) {
            Thread.sleep(500); // the rest of the worker's stack trace
            child.kill();
            throw new NnThroughputException("NNThroughputBenchmark " + op + " FAILED: a worker's call threw (the "
                + "benchmark would spin forever); killed it. " + String.join(" ", arguments) + "\n" + log
                + " ends with:\n" + child.tail(TAIL_LINES), false, log, child.pid());
          }
        }
        if (System.nanoTime() > deadline) {
          String tail = child.tail(TAIL_LINES);
          // Where it hangs (which call, in which thread) before it goes: the JVM prints its threads on SIGQUIT.
          String stacks = ChildJvm.stacks(child.threadDump(Duration.ofSeconds(3)), List.of("main", "StatsDaemon"),
              STACK_LINES);
          child.kill();
          throw new NnThroughputException("NNThroughputBenchmark " + op + " TIMED OUT after " + timeout.toSeconds()
              + " s (a failed or unanswered RPC makes it spin forever); killed it (pid " + child.pid() + "). "
              + String.join(" ", arguments) + "\n" + log + " ends with:\n" + tail
              + (stacks.isEmpty() ? "" : "\nIts threads when it was killed:\n" + stacks), true, log, child.pid());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      child.kill();
      throw new IOException("Interrupted while NNThroughputBenchmark " + op + " ran; killed it", e);
    }
  }

  private static final Pattern STATS_HEADER = Pattern.compile("--- (\\S+) stats\\s+---");
  private static final Pattern OPERATIONS_LINE = Pattern.compile("# operations: (\\d+)\\s*$");
  private static final Pattern ELAPSED_LINE = Pattern.compile("Elapsed Time: (\\d+)\\s*$");
  private static final Pattern RATE_LINE = Pattern.compile("Ops per sec: (\\S+)\\s*$");
  private static final Pattern AVERAGE_LINE = Pattern.compile("Average Time: (\\S+)\\s*$");

  /** The figures under the {@code --- OP stats ---} line of the benchmark's output, if all four are there. */
  static Optional<NnThroughputResult> parse(String op, int threads, String output) {
    Long operations = null;
    Long elapsed = null;
    Double rate = null;
    Double average = null;
    boolean inStats = false;
    for (String line : output.lines().toList()) {
      Matcher header = STATS_HEADER.matcher(line);
      if (header.find()) {
        inStats = header.group(1).equals(op);
        continue;
      }
      if (!inStats) {
        continue;
      }
      Matcher m;
      if ((m = OPERATIONS_LINE.matcher(line)).find()) {
        operations = Long.parseLong(m.group(1));
      } else if ((m = ELAPSED_LINE.matcher(line)).find()) {
        elapsed = Long.parseLong(m.group(1));
      } else if ((m = RATE_LINE.matcher(line)).find()) {
        rate = Double.parseDouble(m.group(1));
      } else if ((m = AVERAGE_LINE.matcher(line)).find()) {
        average = Double.parseDouble(m.group(1));
      }
    }
    if (operations == null || elapsed == null || rate == null || average == null) {
      return Optional.empty();
    }
    return Optional.of(new NnThroughputResult(op, threads, operations, elapsed, rate, average,
        TimedPhaseCpu.parseUsage(output).orElse(ServerCpu.Usage.NONE)));
  }

  private static String describe(String op, String fsUri) {
    return "NNThroughputBenchmark " + op + " against " + fsUri;
  }

  private static String seconds(long startedNanos) {
    return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startedNanos) / 1e9);
  }
}
