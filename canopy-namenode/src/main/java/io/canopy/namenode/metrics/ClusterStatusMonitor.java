package io.canopy.namenode.metrics;

import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this namenode's {@link ClusterStatus}, refreshed at a fixed period by {@link #refresh} (the namenode
 * schedules it): the group and the datanodes from memory and the operations of the interval from the runner's
 * metrics; at a longer period (the census interval: each count reads whole tables) the namespace's size from a
 * {@link NamespaceCensus} and the block health counts from the replication queue. Readers never touch the database.
 */
public final class ClusterStatusMonitor {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterStatusMonitor.class);
  private static final double MICROS_PER_MS = 1_000.0;

  /** The replication queue's counts, as {@code dfsadmin -report} gets them. */
  @FunctionalInterface
  public interface BlockStatsSource {
    ReplicatedBlockStats get() throws IOException;
  }

  private final String clusterId;
  private final String blockPoolId;
  private final LeaderElection election;
  private final DatanodeRegistry registry;
  private final SafeMode safeMode;
  private final OperationMetrics metrics;
  private final Optional<NamespaceCensus> census;
  private final BlockStatsSource blockStats;
  private final LongSupplier clockMs;
  private final long censusIntervalMs;
  private final AtomicReference<ClusterStatus> current = new AtomicReference<>();

  private Map<String, OperationMetrics.Snapshot> previousCounts = Map.of();
  private long previousAtMs;
  private NamespaceCensus.Counts namespace;
  private ClusterStatus.BlockHealth blocks = ClusterStatus.BlockHealth.UNKNOWN;
  private long namespaceCountedAtMs;

  public ClusterStatusMonitor(String clusterId, String blockPoolId, LeaderElection election,
      DatanodeRegistry registry, SafeMode safeMode, OperationMetrics metrics, Optional<NamespaceCensus> census,
      BlockStatsSource blockStats, LongSupplier clockMs, long censusIntervalMs) {
    this.clusterId = clusterId;
    this.blockPoolId = blockPoolId;
    this.election = election;
    this.registry = registry;
    this.safeMode = safeMode;
    this.metrics = metrics;
    this.census = census;
    this.blockStats = blockStats;
    this.clockMs = clockMs;
    this.censusIntervalMs = censusIntervalMs;
    this.previousAtMs = clockMs.getAsLong();
  }

  /** The last refreshed status; refreshed first when none was taken yet. */
  public ClusterStatus current() {
    ClusterStatus status = current.get();
    return status != null ? status : refresh();
  }

  /** Takes a new status: run at a fixed period by one thread; a database failure keeps the last counts. */
  public synchronized ClusterStatus refresh() {
    long now = clockMs.getAsLong();
    if (namespaceCountedAtMs == 0 || now - namespaceCountedAtMs >= censusIntervalMs) {
      countNamespace();
      namespaceCountedAtMs = now;
    }
    double seconds = Math.max(0.001, (now - previousAtMs) / 1_000.0);
    Map<String, OperationMetrics.Snapshot> counts = metrics.snapshot();
    Map<String, ClusterStatus.Operation> operations = operations(counts, metrics.intervalLatencies(), seconds);
    previousCounts = counts;
    previousAtMs = now;
    ClusterStatus status = new ClusterStatus(now, clusterId, blockPoolId, election.selfId(), election.leaderId(),
        namenodes(), datanodes(now), namespace, namespaceCountedAtMs, blocks, safeMode.isOn(),
        safeMode.isOn() ? safeMode.tip() : "", seconds, operations);
    current.set(status);
    return status;
  }

  /**
   * The counts that read whole tables or the whole replication queue, at the census period: the namespace's size and
   * the blocks needing attention. A failure keeps the last counts.
   */
  private void countNamespace() {
    if (census.isPresent()) {
      try {
        namespace = census.get().count();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot count the namespace for the status page and metrics; keeping the last count: {}",
            e.getMessage());
      }
    }
    try {
      ReplicatedBlockStats stats = blockStats.get();
      blocks = new ClusterStatus.BlockHealth(stats.getLowRedundancyBlocks(), stats.getMissingReplicaBlocks(),
          stats.getCorruptBlocks(), stats.getPendingDeletionBlocks());
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot count the blocks needing replication for the status page and metrics: {}", e.getMessage());
    }
  }

  private Map<String, ClusterStatus.Operation> operations(Map<String, OperationMetrics.Snapshot> counts,
      Map<String, Histogram> latencies, double seconds) {
    Map<String, ClusterStatus.Operation> operations = new TreeMap<>();
    counts.forEach((name, total) -> {
      OperationMetrics.Snapshot before = previousCounts.getOrDefault(name, OperationMetrics.Snapshot.ZERO);
      long count = total.operations() - before.operations();
      Histogram latency = latencies.get(name);
      boolean timed = latency != null && latency.getTotalCount() > 0;
      operations.put(name, new ClusterStatus.Operation(count, count / seconds,
          timed ? latency.getValueAtPercentile(50) / MICROS_PER_MS : 0,
          timed ? latency.getValueAtPercentile(90) / MICROS_PER_MS : 0,
          timed ? latency.getValueAtPercentile(99) / MICROS_PER_MS : 0,
          total.operations(), total.failures(), total.retries(), total.retryCacheAnswers(),
          total.roundTripsPerOperation(), total.statementsPerOperation()));
    });
    return operations;
  }

  private List<ClusterStatus.Namenode> namenodes() {
    long leader = election.leaderId();
    List<ClusterStatus.Namenode> namenodes = new ArrayList<>();
    for (NamenodeRecord record : election.liveNamenodes()) {
      namenodes.add(new ClusterStatus.Namenode(record.id(), record.rpcAddress(),
          record.httpAddress() == null ? "" : record.httpAddress(), record.locationDomainId(), record.id() == leader,
          record.startedAtMs()));
    }
    return namenodes;
  }

  private List<ClusterStatus.Datanode> datanodes(long now) {
    List<ClusterStatus.Datanode> datanodes = new ArrayList<>();
    for (DatanodeRegistry.Node node : registry.cachedAll()) {
      DatanodeRecord record = node.record();
      datanodes.add(new ClusterStatus.Datanode(record.uuid(), record.hostName(),
          record.ipAddress() + ":" + record.transferPort(), record.ipAddress() + ":" + record.infoPort(),
          record.networkLocation(), registry.isLive(record), record.capacity(), record.dfsUsed(), record.remaining(),
          Math.max(0, now - record.lastHeartbeatMs())));
    }
    datanodes.sort((a, b) -> a.hostName().equals(b.hostName()) ? a.transferAddress().compareTo(b.transferAddress())
        : a.hostName().compareTo(b.hostName()));
    return datanodes;
  }
}
