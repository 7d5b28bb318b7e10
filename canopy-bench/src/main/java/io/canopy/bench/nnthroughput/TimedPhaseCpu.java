package io.canopy.bench.nnthroughput;

import io.canopy.bench.ServerCpu;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.spi.LoggingEvent;

/**
 * Inside the NNThroughputBenchmark process: reads the servers' CPU time (see {@link ServerCpu}) over exactly the
 * benchmark's timed phase of one operation, and prints it as one line the harness parses.
 *
 * <p>The benchmark logs {@code Starting N OP(s).} on its main thread right before it starts its worker threads
 * ({@code StatsDaemon}s) and its clock already runs: this appender samples the servers synchronously on that line.
 * The phase ends when the last worker thread has ended; a watcher thread samples again then, before the benchmark's
 * clean-up (a setSafeMode and the recursive delete of its base directory) reaches the server. The preparation of
 * open, fileStatus, rename and delete (creating their files, logged as {@code Starting N create(s).}) is not timed
 * by the benchmark and not counted here either.
 *
 * <p>The servers are named by the system property {@value #ROOTS_PROPERTY}:
 * {@code KIND=PID,PID;KIND=PID} (process-tree roots by kind; kinds keep their order).
 */
public final class TimedPhaseCpu extends AppenderSkeleton {
  /** System property of the benchmark JVM naming the server processes, see the class comment. */
  public static final String ROOTS_PROPERTY = "canopy.bench.server-cpu-roots";
  /** Starts the line with the figures: {@code PREFIX KIND=SECONDS;KIND=SECONDS}. */
  static final String LINE_PREFIX = "canopy-bench timed-phase server CPU seconds: ";
  private static final Pattern LINE = Pattern.compile("(?m)^" + Pattern.quote(LINE_PREFIX) + "(.*)$");
  private static final String WORKER_CLASS_SUFFIX = "NNThroughputBenchmark$StatsDaemon";
  /** The benchmark starts its workers microseconds after the line; not seeing one within this is a bug. */
  private static final long WORKERS_START_TIMEOUT_MS = 60_000;
  private static final int WARM_UP_SAMPLES = 20;

  private final Pattern startLine;
  private final Map<String, List<Long>> roots;
  private final PrintStream out;
  private volatile Thread watcher;

  TimedPhaseCpu(String operation, Map<String, List<Long>> roots, PrintStream out) {
    this.startLine = Pattern.compile("^Starting \\d+ " + Pattern.quote(operation) + "\\(s\\)\\.");
    this.roots = roots;
    this.out = out;
  }

  /**
   * Reads the servers a few times before the benchmark starts, so that the sample taken on its clock runs
   * warmer code. Measured in quick runs on a loaded two-core machine (the line this class prints): Canopy's 34
   * processes took 8-18 ms cold, 6-11 ms after this, at most 1.5% of a quick-mode timed phase (0.1% in full
   * mode's ten times longer ones); HDFS's one JVM 0.4-2.4 ms.
   */
  void warmUp() throws IOException {
    for (int i = 0; i < WARM_UP_SAMPLES; i++) {
      ServerCpu.sample(roots);
    }
  }

  /** {@code KIND=PID,PID;KIND=PID} for {@link #ROOTS_PROPERTY}. */
  public static String format(Map<String, List<Long>> roots) {
    List<String> kinds = new ArrayList<>();
    roots.forEach((kind, pids) -> {
      if (kind.isEmpty() || kind.contains("=") || kind.contains(";")) {
        throw new IllegalArgumentException("kind names must be non-empty without '=' or ';': '" + kind + "'");
      }
      List<String> numbers = new ArrayList<>();
      pids.forEach(pid -> numbers.add(Long.toString(pid)));
      kinds.add(kind + "=" + String.join(",", numbers));
    });
    return String.join(";", kinds);
  }

  /** The inverse of {@link #format}. */
  static Map<String, List<Long>> parseRoots(String value) {
    Map<String, List<Long>> roots = new LinkedHashMap<>();
    for (String kind : value.split(";")) {
      int eq = kind.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(ROOTS_PROPERTY + ": expected KIND=PID,PID;..., got '" + value + "'");
      }
      List<Long> pids = new ArrayList<>();
      for (String pid : kind.substring(eq + 1).split(",")) {
        if (!pid.isBlank()) {
          pids.add(Long.parseLong(pid.trim()));
        }
      }
      roots.put(kind.substring(0, eq), pids);
    }
    return roots;
  }

  /** The CPU time printed by a benchmark run, if it printed one. */
  static Optional<ServerCpu.Usage> parseUsage(String output) {
    Matcher matcher = LINE.matcher(output);
    if (!matcher.find()) {
      return Optional.empty();
    }
    Map<String, Double> seconds = new LinkedHashMap<>();
    for (String kind : matcher.group(1).trim().split(";")) {
      int eq = kind.lastIndexOf('=');
      seconds.put(kind.substring(0, eq), Double.parseDouble(kind.substring(eq + 1)));
    }
    return Optional.of(new ServerCpu.Usage(seconds));
  }

  static String formatUsage(ServerCpu.Usage usage) {
    List<String> kinds = new ArrayList<>();
    usage.secondsByKind().forEach((kind, seconds) -> kinds.add(String.format(Locale.ROOT, "%s=%.2f", kind,
        seconds)));
    return LINE_PREFIX + String.join(";", kinds);
  }

  /** Whether the benchmark's log message is the start of the timed phase of this appender's operation. */
  boolean startsTimedPhase(String message) {
    return message != null && startLine.matcher(message).find();
  }

  @Override
  protected void append(LoggingEvent event) {
    if (watcher != null || !startsTimedPhase(event.getRenderedMessage())) {
      return;
    }
    ServerCpu.Sample start;
    long sampleStart = System.nanoTime();
    try {
      start = ServerCpu.sample(roots);
    } catch (IOException e) {
      out.println("canopy-bench: cannot read the servers' CPU time: " + e);
      return;
    }
    // the benchmark's clock already runs: how much this adds to its elapsed time
    out.printf(Locale.ROOT, "canopy-bench: the start sample of the servers' CPU took %d us%n",
        (System.nanoTime() - sampleStart) / 1000);
    Thread thread = new Thread(() -> awaitWorkersAndReport(start), "canopy-bench-timed-phase-cpu");
    thread.setDaemon(true);
    watcher = thread;
    thread.start();
  }

  private void awaitWorkersAndReport(ServerCpu.Sample start) {
    try {
      long deadline = System.currentTimeMillis() + WORKERS_START_TIMEOUT_MS;
      while (workers().isEmpty()) {
        if (System.currentTimeMillis() > deadline) {
          out.println("canopy-bench: no NNThroughputBenchmark worker started within " + WORKERS_START_TIMEOUT_MS
              + " ms of its start line; server CPU not measured");
          return;
        }
        Thread.sleep(1);
      }
      List<Thread> alive;
      while (!(alive = workers()).isEmpty()) {
        for (Thread worker : alive) {
          worker.join();
        }
      }
      out.println(formatUsage(ServerCpu.sample(roots).since(start)));
      out.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      out.println("canopy-bench: cannot read the servers' CPU time: " + e);
    }
  }

  /** The benchmark's live worker threads. */
  private static List<Thread> workers() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() * 2 + 16];
    int count = root.enumerate(threads, true);
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (threads[i].isAlive() && threads[i].getClass().getName().endsWith(WORKER_CLASS_SUFFIX)) {
        workers.add(threads[i]);
      }
    }
    return workers;
  }

  /** Waits (bounded) for the watcher to print its line, so the process does not exit before it. */
  void awaitReport(long timeoutMs) throws InterruptedException {
    Thread thread = watcher;
    if (thread != null) {
      thread.join(timeoutMs);
    }
  }

  @Override
  public void close() {
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
