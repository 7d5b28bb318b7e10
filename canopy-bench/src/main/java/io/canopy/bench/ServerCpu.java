package io.canopy.bench;

import io.canopy.bench.mix.RecordedInterval;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * CPU time (user + system) the server processes of a system spent, read from {@code /proc/PID/stat}, by kind
 * (e.g. namenode, PostgreSQL, datanodes): what the report divides by the operations of a measured interval.
 *
 * <p><b>What is counted.</b> A kind is a set of root processes; its CPU time is that of each root's whole process
 * tree, because PostgreSQL forks a backend per connection and autovacuum workers that come and go. For every live
 * process of the tree the sample adds its own {@code utime + stime} (fields 14, 15: all its threads) and its
 * {@code cutime + cstime} (fields 16, 17): the times of its children that have exited and that it has waited for,
 * which the kernel adds to the parent when it reaps them (PostgreSQL's postmaster reaps its backends). So a backend
 * that exits between two samples is counted at the start as itself and at the end inside its parent, and the
 * difference of two samples is exactly the tree's CPU time between them. Not counted: a process that leaves the tree
 * (re-parented when its parent dies, which a server's own workers do not do), a child reaped exactly while the
 * sample reads /proc (it is then read twice or not at all: at most one exiting process per sample), and a live
 * child that a JVM's non-main thread forked (see {@link #readTrees}; it counts once its parent reaped it).
 *
 * <p>{@code /proc} reports times in USER_HZ ticks, 100 per second on every Linux architecture this runs on, whatever
 * the kernel's own tick rate: a figure per process is exact to 10 ms, so a short interval over many processes is
 * a few ticks off; the report's intervals last seconds.
 */
public final class ServerCpu {
  /** USER_HZ: the unit of the times in /proc/PID/stat (fixed at 100 by the kernel ABI on x86-64 and arm64). */
  static final long TICKS_PER_SECOND = 100;
  private static final Path PROC = Path.of("/proc");

  private ServerCpu() {
  }

  /**
   * The fields of one {@code /proc/PID/stat} line that the sum over a tree needs.
   *
   * @param pid the process
   * @param parentPid its parent (field 4)
   * @param ownTicks utime + stime: every thread of the process
   * @param reapedChildrenTicks cutime + cstime: its exited and waited-for descendants
   */
  record ProcessTimes(long pid, long parentPid, long ownTicks, long reapedChildrenTicks) {
    long totalTicks() {
      return ownTicks + reapedChildrenTicks;
    }
  }

  /**
   * Parses a stat line. The command name (field 2) is in parentheses and may itself hold spaces and parentheses, so
   * the fields are counted from the last ')'.
   */
  static ProcessTimes parse(String statLine) {
    int open = statLine.indexOf('(');
    int close = statLine.lastIndexOf(')');
    if (open <= 0 || close < open) {
      throw new IllegalArgumentException("not a /proc/PID/stat line: '" + statLine + "'");
    }
    long pid = Long.parseLong(statLine.substring(0, open).trim());
    // after ')' come field 3 (state), field 4 (ppid), ... field 14 (utime) is index 11 of this array
    String[] fields = statLine.substring(close + 1).trim().split(" +");
    if (fields.length < 15) {
      throw new IllegalArgumentException("/proc/" + pid + "/stat has " + (fields.length + 2)
          + " fields, at least 17 expected: '" + statLine + "'");
    }
    long parent = Long.parseLong(fields[1]);
    long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    long children = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    return new ProcessTimes(pid, parent, own, children);
  }

  /** CPU ticks of the process trees under {@code roots} (see the class comment); a root that is gone adds 0. */
  static long treeTicks(Map<Long, ProcessTimes> processes, Collection<Long> roots) {
    Map<Long, List<ProcessTimes>> children = new HashMap<>();
    for (ProcessTimes process : processes.values()) {
      children.computeIfAbsent(process.parentPid(), parent -> new ArrayList<>()).add(process);
    }
    Set<Long> seen = new HashSet<>();
    Deque<Long> pending = new ArrayDeque<>(roots);
    long ticks = 0;
    while (!pending.isEmpty()) {
      long pid = pending.pop();
      ProcessTimes process = processes.get(pid);
      if (process == null || !seen.add(pid)) {
        continue; // exited, or listed twice (a root inside another root's tree)
      }
      ticks += process.totalTicks();
      for (ProcessTimes child : children.getOrDefault(pid, List.of())) {
        pending.push(child.pid());
      }
    }
    return ticks;
  }

  /** Every process's times, read once from /proc (processes that exit while it reads are left out). */
  static Map<Long, ProcessTimes> readProc() throws IOException {
    Map<Long, ProcessTimes> processes = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path entry : entries) {
        try {
          ProcessTimes process = parse(Files.readString(entry.resolve("stat")));
          processes.put(process.pid(), process);
        } catch (NoSuchFileException exited) {
          // gone since the listing
        } catch (IOException unreadable) {
          if (Files.exists(entry)) {
            throw unreadable;
          }
        }
      }
    }
    return processes;
  }

  /**
   * The times of the processes of the trees under {@code roots}, found from each root down through
   * {@code /proc/PID/task/PID/children}: a few small reads per process, so a sample takes about a millisecond
   * and can be taken on a benchmark's own thread. That file lists the children its main thread forked; a JVM's
   * other threads may fork short-lived helpers (Hadoop's shell-based group lookup), which count once reaped. On a
   * kernel without the file (CONFIG_PROC_CHILDREN off) every process in /proc is read instead.
   */
  static Map<Long, ProcessTimes> readTrees(Collection<Long> roots) throws IOException {
    Map<Long, ProcessTimes> members = new HashMap<>();
    Deque<Long> pending = new ArrayDeque<>(roots);
    while (!pending.isEmpty()) {
      long pid = pending.pop();
      if (members.containsKey(pid)) {
        continue;
      }
      Path process = PROC.resolve(Long.toString(pid));
      String children;
      try {
        members.put(pid, parse(Files.readString(process.resolve("stat"))));
        children = Files.readString(process.resolve("task").resolve(Long.toString(pid)).resolve("children"));
      } catch (NoSuchFileException gone) {
        if (members.containsKey(pid) && Files.exists(process)) {
          return readProc(); // the process is there but the kernel does not list children
        }
        continue; // exited
      }
      for (String child : children.trim().split(" +")) {
        if (!child.isEmpty()) {
          pending.push(Long.parseLong(child));
        }
      }
    }
    return members;
  }

  /** CPU ticks so far of each kind's process trees; kinds keep their order. */
  public static Sample sample(Map<String, List<Long>> rootsByKind) throws IOException {
    List<Long> allRoots = new ArrayList<>();
    rootsByKind.values().forEach(allRoots::addAll);
    Map<Long, ProcessTimes> processes = readTrees(allRoots);
    Map<String, Long> ticks = new LinkedHashMap<>();
    rootsByKind.forEach((kind, roots) -> ticks.put(kind, treeTicks(processes, roots)));
    return new Sample(ticks);
  }

  /** Cumulative CPU ticks of each kind at one moment. */
  public record Sample(Map<String, Long> ticksByKind) {
    public Sample {
      ticksByKind = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ticksByKind));
    }

    /** The CPU time spent from {@code earlier} to this sample, per kind (kinds of this sample, in its order). */
    public Usage since(Sample earlier) {
      Map<String, Double> seconds = new LinkedHashMap<>();
      ticksByKind.forEach((kind, ticks) -> seconds.put(kind,
          (ticks - earlier.ticksByKind().getOrDefault(kind, 0L)) / (double) TICKS_PER_SECOND));
      return new Usage(seconds);
    }
  }

  /** CPU seconds per kind spent over an interval (or several intervals added up). */
  public record Usage(Map<String, Double> secondsByKind) {
    public static final Usage NONE = new Usage(Map.of());

    public Usage {
      secondsByKind = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(secondsByKind));
    }

    public double totalSeconds() {
      return secondsByKind.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    public Usage plus(Usage other) {
      Map<String, Double> sum = new LinkedHashMap<>(secondsByKind);
      other.secondsByKind().forEach((kind, seconds) -> sum.merge(kind, seconds, Double::sum));
      return new Usage(sum);
    }

    /** Microseconds of CPU per operation of {@code kind} (0 if the kind was not measured). */
    public double microsPerOperation(String kind, long operations) {
      return perOperation(secondsByKind.getOrDefault(kind, 0.0), operations);
    }

    /** Microseconds of CPU per operation of every kind together. */
    public double totalMicrosPerOperation(long operations) {
      return perOperation(totalSeconds(), operations);
    }

    private static double perOperation(double seconds, long operations) {
      if (operations <= 0) {
        throw new IllegalArgumentException("CPU per operation needs at least one operation, got " + operations);
      }
      return seconds * 1e6 / operations;
    }
  }

  /**
   * CPU per operation of repeated runs of one workload: per kind and in total, the median over the runs of each
   * run's CPU time divided by that run's operations.
   *
   * @param medianMicrosByKind microseconds per operation by kind, in the kinds' order
   * @param medianTotalMicros microseconds per operation of all kinds together
   */
  public record PerOperation(Map<String, Double> medianMicrosByKind, double medianTotalMicros) {
    public PerOperation {
      medianMicrosByKind = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(medianMicrosByKind));
    }

    /** From each run's CPU time and operation count (the same number of each, at least one run). */
    public static PerOperation of(List<Usage> usages, List<Long> operations) {
      if (usages.isEmpty() || usages.size() != operations.size()) {
        throw new IllegalArgumentException(usages.size() + " CPU measurements for " + operations.size()
            + " runs: expected one per run, at least one");
      }
      Map<String, List<Double>> byKind = new LinkedHashMap<>();
      List<Double> totals = new ArrayList<>();
      for (int run = 0; run < usages.size(); run++) {
        Usage usage = usages.get(run);
        long count = operations.get(run);
        usage.secondsByKind().keySet().forEach(kind -> byKind.computeIfAbsent(kind, k -> new ArrayList<>())
            .add(usage.microsPerOperation(kind, count)));
        totals.add(usage.totalMicrosPerOperation(count));
      }
      Map<String, Double> medians = new LinkedHashMap<>();
      byKind.forEach((kind, values) -> medians.put(kind, Spread.of(values).median()));
      return new PerOperation(medians, Spread.of(totals).median());
    }

    /** Microseconds per operation of {@code kind}, or NaN if it was not measured. */
    public double micros(String kind) {
      return medianMicrosByKind.getOrDefault(kind, Double.NaN);
    }
  }

  /**
   * Samples the trees when a run's recorded part starts and when it ends ({@link RecordedInterval}), so the CPU
   * time covers exactly the interval whose operations are counted.
   */
  public static final class Meter implements RecordedInterval {
    private final Map<String, List<Long>> rootsByKind;
    private Sample start;
    private Usage usage;

    public Meter(Map<String, List<Long>> rootsByKind) {
      this.rootsByKind = new LinkedHashMap<>(Objects.requireNonNull(rootsByKind, "rootsByKind"));
    }

    @Override
    public void started() throws IOException {
      start = sample(rootsByKind);
    }

    @Override
    public void ended() throws IOException {
      if (start == null) {
        throw new IllegalStateException("the measured interval ended before it started");
      }
      usage = sample(rootsByKind).since(start);
    }

    /** The CPU time of the interval; throws if it has not ended. */
    public Usage usage() {
      if (usage == null) {
        throw new IllegalStateException("no measured interval has ended yet");
      }
      return usage;
    }
  }
}
