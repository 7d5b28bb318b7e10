package io.canopy.bench.nemesis;

import io.canopy.cli.ClusterConfigs;
import io.canopy.cli.ClusterLayout;
import io.canopy.namenode.fault.FaultControl;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A nemesis run (issue 20): a {@code canopy up} cluster (3 namenodes, 3 datanodes on PostgreSQL), clients running the
 * {@link NemesisClient} workload, and faults injected one after another ({@link ClusterFaults}: every kind in turn, in
 * an order drawn from the seed) until the time or the fault budget is spent; each fault's recovery is timed by a probe
 * call. Then the cluster is healed and checked: every client reads back all its files, {@code canopy fsck} must find
 * the metadata healthy, and every shared history must be linearizable. Bounded: the run stops injecting at its
 * deadline and gives every check a bound of its own.
 */
public final class NemesisRun {
  /**
   * @param dir the cluster directory ({@code canopy up} there; stopped at the end unless {@code keepCluster})
   * @param duration how long faults are injected
   * @param maxFaults stop after this many faults even before {@code duration}
   * @param clients workload clients
   * @param seed the seed of the fault order, the targets and the workload
   * @param gap the pause between a fault's recovery and the next fault
   */
  public record Settings(Path dir, Duration duration, int maxFaults, int clients, long seed, Duration gap,
      boolean keepCluster) {
    public Settings {
      if (clients < 2 || clients > 16) {
        throw new IllegalArgumentException("clients must be within [2, 16], got " + clients);
      }
      if (maxFaults < 1 || duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("a run needs a positive duration and fault budget");
      }
    }
  }

  /** How long after its heal a fault's probe call may take to succeed before the fault counts as not recovered. */
  private static final Duration RECOVERY_BOUND = Duration.ofMinutes(3);
  /** Each shared directory lasts this long (a new epoch, a new directory: short histories). */
  private static final long EPOCH_NANOS = Duration.ofSeconds(30).toNanos();
  /** The linearizability search's bound per history. */
  private static final long MAX_STATES = 2_000_000;

  private NemesisRun() {
  }

  /** The client settings of a run: quick failover, and calls to a paused namenode time out. */
  static Configuration clientConfiguration(Path dir) {
    Configuration conf = new Configuration(ClusterConfigs.loadClient(new ClusterLayout(dir)));
    conf.setInt("ipc.client.connect.max.retries", 3);
    conf.setInt("ipc.client.connect.retry.interval", 200);
    conf.setInt("ipc.client.rpc-timeout.ms", 20_000);
    conf.setInt("dfs.client.failover.max.attempts", 30);
    conf.setInt("dfs.client.failover.sleep.base.millis", 200);
    conf.setInt("dfs.client.failover.sleep.max.millis", 2_000);
    conf.setInt("dfs.client.socket-timeout", 20_000);
    return conf;
  }

  public static NemesisReport run(Settings settings, PrintWriter progress) throws IOException, InterruptedException {
    ClusterCommands commands = new ClusterCommands(settings.dir());
    LongSupplier nanos = System::nanoTime;
    Random random = new Random(settings.seed());
    progress.println("nemesis: starting a cluster in " + settings.dir());
    progress.flush();
    Files.deleteIfExists(ClusterFaults.controlFile(settings.dir()));
    commands.succeed("up", "--namenodes", "3", "--datanodes", "3", "-D", FaultControl.FILE_KEY + "="
        + ClusterFaults.controlFile(settings.dir().toAbsolutePath()), "-D", FaultControl.SEED_KEY + "="
        + settings.seed());
    try {
      return runOn(settings, commands, nanos, random, progress);
    } finally {
      if (!settings.keepCluster()) {
        commands.run("down");
      }
    }
  }

  private static NemesisReport runOn(Settings settings, ClusterCommands commands, LongSupplier nanos, Random random,
      PrintWriter progress) throws IOException, InterruptedException {
    Configuration conf = clientConfiguration(settings.dir());
    URI uri = URI.create(conf.get("fs.defaultFS"));
    long start = nanos.getAsLong();
    AtomicLong tokens = new AtomicLong();
    List<NemesisClient> clients = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    List<FileSystem> fileSystems = new ArrayList<>();
    ClusterFaults faults = new ClusterFaults(commands, nanos);
    List<ClusterFaults.Injected> injected = new ArrayList<>();
    List<Long> recoveries = new ArrayList<>();
    try (FileSystem probe = FileSystem.newInstance(uri, conf)) {
      for (int i = 0; i < settings.clients(); i++) {
        // half the clients are Canopy's (small files in the database), half the stock HDFS client
        Configuration clientConf = new Configuration(conf);
        if (i % 2 == 1) {
          clientConf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
        }
        DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(uri, clientConf);
        fileSystems.add(fs);
        NemesisClient client = new NemesisClient(i, fs, new Random(random.nextLong()), nanos,
            () -> (int) ((nanos.getAsLong() - start) / EPOCH_NANOS), tokens);
        clients.add(client);
        Thread thread = new Thread(client, "nemesis-client-" + i);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
      long deadline = start + settings.duration().toNanos();
      List<FaultKind> order = new ArrayList<>();
      int probes = 0;
      while (injected.size() < settings.maxFaults() && nanos.getAsLong() < deadline) {
        Thread.sleep(settings.gap().toMillis());
        if (order.isEmpty()) {
          order.addAll(Arrays.asList(FaultKind.values()));
          Collections.shuffle(order, random);
        }
        FaultKind kind = order.remove(0);
        ClusterFaults.Injected fault = faults.inject(kind, random);
        long recovery = recover(probe, "/probe/" + probes++, nanos, fault.healedNanos());
        faults.ensureAllRunning();
        injected.add(fault);
        recoveries.add(recovery);
        progress.printf(Locale.ROOT, "nemesis: fault %d %s on %s, held %.1f s, recovered %s%n", injected.size(),
            kind, fault.target(), (fault.healedNanos() - fault.startNanos()) / 1e9,
            recovery < 0 ? "NOT within " + RECOVERY_BOUND : String.format(Locale.ROOT, "%.1f s after", recovery / 1e9));
        progress.flush();
      }
      faults.ensureAllRunning();
      recover(probe, "/probe/final", nanos, nanos.getAsLong());
      for (NemesisClient client : clients) {
        client.stop();
      }
      List<String> stuck = new ArrayList<>();
      for (Thread thread : threads) {
        thread.join(Duration.ofMinutes(5).toMillis());
        if (thread.isAlive()) {
          stuck.add(thread.getName() + " did not finish its operation within 5 minutes of the cluster healing");
        }
      }
      progress.println("nemesis: " + injected.size() + " faults injected; checking every file, fsck, histories");
      progress.flush();
      for (NemesisClient client : clients) {
        client.finalCheck(60);
      }
      double minutes = (nanos.getAsLong() - start) / 60e9;
      return report(settings, commands, clients, injected, recoveries, stuck, minutes);
    } finally {
      for (FileSystem fs : fileSystems) {
        try {
          fs.close();
        } catch (IOException e) {
          // the cluster may be gone
        }
      }
    }
  }

  /** Nanos from {@code healed} until a mkdirs succeeds, or -1 when none does within {@link #RECOVERY_BOUND}. */
  private static long recover(FileSystem probe, String path, LongSupplier nanos, long healed)
      throws InterruptedException {
    long bound = healed + RECOVERY_BOUND.toNanos();
    while (nanos.getAsLong() < bound) {
      try {
        if (probe.mkdirs(new org.apache.hadoop.fs.Path(path))) {
          return nanos.getAsLong() - healed;
        }
      } catch (IOException | RuntimeException e) {
        // not yet
      }
      Thread.sleep(100);
    }
    return -1;
  }

  private static NemesisReport report(Settings settings, ClusterCommands commands, List<NemesisClient> clients,
      List<ClusterFaults.Injected> injected, List<Long> recoveries, List<String> stuck, double minutes) {
    List<String> violations = new ArrayList<>(stuck);
    List<FsOperation> shared = new ArrayList<>();
    List<NemesisClient.Latency> latencies = new ArrayList<>();
    long acknowledged = 0;
    long unknown = 0;
    for (NemesisClient client : clients) {
      violations.addAll(client.violations());
      shared.addAll(client.sharedHistory());
      latencies.addAll(client.latencies());
      acknowledged += client.acknowledged();
      unknown += client.unknown();
    }
    ClusterCommands.Result fsck = commands.run("fsck");
    String fsckSummary = fsck.output().lines().filter(line -> line.startsWith("PROBLEM") || line.contains("HEALTHY")
        || line.contains("CORRUPT")).limit(10).reduce((a, b) -> a + "; " + b).orElse(fsck.output());
    LinearizabilityChecker checker = new LinearizabilityChecker(MAX_STATES);
    int checked = 0;
    int linearizable = 0;
    int undecided = 0;
    List<String> notLinearizable = new ArrayList<>();
    for (List<FsOperation> history : LinearizabilityChecker.byTopDirectory(shared)) {
      checked++;
      LinearizabilityChecker.Result result = checker.check(history, FsModel.empty());
      switch (result.verdict()) {
        case LINEARIZABLE -> linearizable++;
        case UNDECIDED -> undecided++;
        case NOT_LINEARIZABLE -> {
          Path file = settings.dir().resolve("history-" + checked + ".txt");
          notLinearizable.add(history.get(0).path() + " (" + history.size() + " operations, in " + file
              + "): no order explains it; the longest explained prefix ends with " + result.stuckAfter().subList(
                  Math.max(0, result.stuckAfter().size() - 5), result.stuckAfter().size()));
          writeHistory(file, history);
        }
      }
    }
    List<long[]> windows = new ArrayList<>();
    for (int i = 0; i < injected.size(); i++) {
      long recovered = recoveries.get(i) < 0 ? Long.MAX_VALUE : injected.get(i).healedNanos() + recoveries.get(i);
      windows.add(new long[] {injected.get(i).startNanos(), recovered});
    }
    List<Long> all = new ArrayList<>();
    List<Long> duringFaults = new ArrayList<>();
    for (NemesisClient.Latency latency : latencies) {
      all.add(latency.nanos());
      long begin = latency.endNanos() - latency.nanos();
      if (windows.stream().anyMatch(window -> begin <= window[1] && latency.endNanos() >= window[0])) {
        duringFaults.add(latency.nanos());
      }
    }
    return new NemesisReport(settings.seed(), settings.clients(), minutes, injected, recoveries, acknowledged, unknown,
        violations, fsck.exitCode() == 0, fsckSummary, checked, linearizable, undecided, notLinearizable, all.size(),
        percentileMs(all, 0.50), percentileMs(all, 0.99), duringFaults.size(), percentileMs(duringFaults, 0.99),
        percentileMs(duringFaults, 1.0));
  }

  /** A history the checker refused, one operation per line in call order, for a person or a replay. */
  private static void writeHistory(Path file, List<FsOperation> history) {
    List<FsOperation> sorted = new ArrayList<>(history);
    sorted.sort(java.util.Comparator.comparingLong(FsOperation::callNanos));
    try {
      java.nio.file.Files.write(file, sorted.stream().map(FsOperation::toString).toList());
    } catch (IOException e) {
      // the report still names the history's first path
    }
  }

  private static double percentileMs(List<Long> nanos, double quantile) {
    if (nanos.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1)) / 1e6;
  }
}
