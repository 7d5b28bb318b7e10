package io.canopy.bench.fullreport;

import io.canopy.bench.ServerCpu;
import io.canopy.bench.mix.LatencyStatistics;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * Many datanodes' full reports at once, as when a cluster's datanodes restart together, while clients keep working
 * (issue 17: "startup of many datanodes at once does not stall client traffic"). {@code datanodes} datanodes played
 * over the stock DatanodeProtocol ({@link ReportingDatanode}) share {@code blocks} blocks (replication 1). Client
 * threads call the namenode without pause throughout (a file status, then a new directory, in turn), their latency
 * recorded per phase: quiet (no report), then a storm where every datanode reports at once lacking a share of its
 * blocks (lost while it was down), then one where each lists them again (found). In a storm each datanode does what
 * a stock DataNode does: asks for a full-report lease in a heartbeat ({@link #LEASE_RETRY_MS} apart while refused),
 * then sends its report under it.
 */
public final class ReportStorm {
  public static final String QUIET = "quiet";
  public static final String LOST = FullReportComparison.LOST;
  public static final String FOUND = FullReportComparison.FOUND;
  public static final int CLIENT_THREADS = 4;
  public static final long QUIET_MS = 10_000;
  /** A refused datanode asks again this much later (a stock DataNode: at its next heartbeat, 3 s by default). */
  public static final long LEASE_RETRY_MS = 200;
  /** A storm that takes longer fails the benchmark. */
  static final long STORM_BOUND_MS = 20 * 60_000;
  private static final long HEARTBEAT_MS = 3_000;
  /** How long the namenode may take to list the benchmark's datanodes live. */
  static final long ANNOUNCE_BOUND_MS = 60_000;

  /**
   * One phase: how long its reports took from the first lease request to the last report's answer (0 when quiet),
   * the client calls made meanwhile and their latency, failed calls, the servers' CPU, and the refused lease
   * requests.
   */
  public record Phase(String kind, double seconds, LatencyStatistics clients, long clientFailures,
      ServerCpu.Usage cpu, long leasesRefused) {
  }

  private ReportStorm() {
  }

  public static List<Phase> run(String clientUri, InetSocketAddress datanodeProtocol, Configuration conf,
      Map<String, List<Long>> serverCpuRoots, int datanodes, int blocks, double changedShare, long seed,
      PrintWriter progress, String system) throws Exception {
    List<ReportingDatanode> nodes = new ArrayList<>();
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    try (DFSClient client = new DFSClient(URI.create(clientUri), conf)) {
      Map<String, ReportingDatanode> byUuid = new LinkedHashMap<>();
      for (int i = 0; i < datanodes; i++) {
        // distinct transfer addresses: HDFS takes a second registration at the same address for the same node
        ReportingDatanode node = new ReportingDatanode(datanodeProtocol, conf, 1 + 4 * i);
        nodes.add(node);
        byUuid.put(node.uuid(), node);
      }
      ReportingDatanode.announce(nodes, client.getNamenode(), ANNOUNCE_BOUND_MS);
      heartbeats.scheduleWithFixedDelay(() -> {
        for (ReportingDatanode node : nodes) {
          try {
            node.heartbeat();
          } catch (IOException e) {
            progress.println("  " + system + ": heartbeat failed: " + e);
          }
        }
      }, HEARTBEAT_MS, HEARTBEAT_MS, TimeUnit.MILLISECONDS);

      Map<ReportingDatanode, List<Block>> stored = new LinkedHashMap<>();
      nodes.forEach(node -> stored.put(node, Collections.synchronizedList(new ArrayList<>())));
      long started = System.nanoTime();
      FullReportComparison.fill(client.getNamenode(), (located, block) -> {
        ReportingDatanode node = byUuid.get(located.getLocations()[0].getDatanodeUuid());
        if (node == null) {
          throw new IOException("block " + block + " placed on " + located.getLocations()[0]
              + ", not one of the benchmark's datanodes");
        }
        node.received(List.of(block));
        stored.get(node).add(block);
      }, blocks, progress, system);
      progress.printf(Locale.ROOT, "  %s: %,d blocks written over %d datanodes in %.0f s%n", system, blocks,
          datanodes, (System.nanoTime() - started) / 1e9);
      progress.flush();

      Map<ReportingDatanode, BlockListAsLongs> all = new LinkedHashMap<>();
      Map<ReportingDatanode, BlockListAsLongs> withoutLost = new LinkedHashMap<>();
      Random random = new Random(seed);
      for (ReportingDatanode node : nodes) {
        List<Block> own = new ArrayList<>(stored.get(node));
        all.put(node, ReportingDatanode.encode(own));
        List<Block> shuffled = new ArrayList<>(own);
        Collections.shuffle(shuffled, random);
        Set<Block> lost = new HashSet<>(shuffled.subList(0, (int) Math.round(own.size() * changedShare)));
        withoutLost.put(node, ReportingDatanode.encode(own.stream().filter(b -> !lost.contains(b)).toList()));
        node.fullReport(all.get(node)); // untimed: the namenode's first full report of each storage
      }

      List<Phase> phases = new ArrayList<>();
      try (Clients clients = new Clients(client.getNamenode())) {
        phases.add(clients.quiet(serverCpuRoots));
        phases.add(clients.storm(LOST, withoutLost, serverCpuRoots));
        phases.add(clients.storm(FOUND, all, serverCpuRoots));
      }
      for (Phase phase : phases) {
        progress.printf(Locale.ROOT, "  %s: %s, %d datanodes: %.3f s; clients: %s, %d failed; leases refused %d; "
            + "server CPU %.2f s%n", system, phase.kind(), datanodes, phase.seconds(), phase.clients().describe(),
            phase.clientFailures(), phase.leasesRefused(), phase.cpu().totalSeconds());
      }
      progress.flush();
      return phases;
    } finally {
      heartbeats.shutdownNow();
      for (ReportingDatanode node : nodes) {
        node.close();
      }
    }
  }

  /** The client threads, their latencies kept with the time each call started. */
  private static final class Clients implements AutoCloseable {
    private final ClientProtocol namenode;
    private final ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    /** Calls are kept only within a phase (between phases, only their count would grow). */
    private volatile boolean recording;
    private final ExecutorService threads = Executors.newFixedThreadPool(CLIENT_THREADS);
    private final List<Future<?>> running = new ArrayList<>();

    Clients(ClientProtocol namenode) throws IOException {
      this.namenode = namenode;
      namenode.mkdirs("/canopy-bench/storm", FsPermission.getDirDefault(), true);
      for (int t = 0; t < CLIENT_THREADS; t++) {
        int thread = t;
        running.add(threads.submit(() -> work(thread)));
      }
    }

    private void work(int thread) {
      for (long n = 0; !stop.get(); n++) {
        long start = System.nanoTime();
        try {
          if (n % 2 == 0) {
            namenode.getFileInfo("/canopy-bench/full-report/f0");
          } else { // a directory per 100,000 calls: HDFS caps a directory's entries (1,048,576 by default)
            namenode.mkdirs("/canopy-bench/storm/t" + thread + "/" + n / 100_000 + "/" + n,
                FsPermission.getDirDefault(), true);
          }
          if (recording) {
            calls.add(new long[] {start, System.nanoTime() - start});
          }
        } catch (IOException e) {
          failures.incrementAndGet();
        }
      }
    }

    Phase quiet(Map<String, List<Long>> serverCpuRoots) throws IOException, InterruptedException {
      long failed = failures.get();
      ServerCpu.Sample before = ServerCpu.sample(serverCpuRoots);
      long from = begin();
      Thread.sleep(QUIET_MS);
      long to = System.nanoTime();
      recording = false;
      return new Phase(QUIET, 0, latencies(from, to), failures.get() - failed,
          ServerCpu.sample(serverCpuRoots).since(before), 0);
    }

    /** Every datanode asks for a lease, then reports {@code reports}' list, all starting together. */
    Phase storm(String kind, Map<ReportingDatanode, BlockListAsLongs> reports,
        Map<String, List<Long>> serverCpuRoots) throws Exception {
      ExecutorService datanodes = Executors.newFixedThreadPool(reports.size());
      try {
        CyclicBarrier start = new CyclicBarrier(reports.size() + 1);
        AtomicLong refused = new AtomicLong();
        List<Future<?>> sent = new ArrayList<>();
        for (Map.Entry<ReportingDatanode, BlockListAsLongs> report : reports.entrySet()) {
          sent.add(datanodes.submit(() -> {
            start.await(STORM_BOUND_MS, TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + STORM_BOUND_MS * 1_000_000L;
            long lease;
            while ((lease = report.getKey().requestLease()) == 0) {
              refused.incrementAndGet();
              if (System.nanoTime() > deadline) {
                throw new IOException("no full-report lease within " + STORM_BOUND_MS + " ms");
              }
              Thread.sleep(LEASE_RETRY_MS);
            }
            report.getKey().fullReport(report.getValue(), lease);
            return null;
          }));
        }
        long failed = failures.get();
        ServerCpu.Sample before = ServerCpu.sample(serverCpuRoots);
        long from = begin();
        start.await(STORM_BOUND_MS, TimeUnit.MILLISECONDS);
        for (Future<?> report : sent) {
          report.get(STORM_BOUND_MS, TimeUnit.MILLISECONDS);
        }
        long to = System.nanoTime();
        recording = false;
        Phase phase = new Phase(kind, (to - from) / 1e9, latencies(from, to), failures.get() - failed,
            ServerCpu.sample(serverCpuRoots).since(before), refused.get());
        Thread.sleep(2_000); // what the reports queued settles before the next phase
        return phase;
      } finally {
        datanodes.shutdownNow();
      }
    }

    /** Starts keeping calls, the previous phase's dropped; answers when. */
    private long begin() {
      calls.clear();
      recording = true;
      return System.nanoTime();
    }

    /** The latencies of the calls that started in [from, to). */
    private LatencyStatistics latencies(long from, long to) {
      List<Long> window = new ArrayList<>();
      for (long[] call : calls) {
        if (call[0] >= from && call[0] < to) {
          window.add(call[1]);
        }
      }
      return LatencyStatistics.ofNanos(window.stream().mapToLong(Long::longValue).toArray());
    }

    @Override
    public void close() throws Exception {
      stop.set(true);
      threads.shutdown();
      try {
        for (Future<?> thread : running) {
          thread.get(1, TimeUnit.MINUTES);
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }
}
