package io.canopy.namenode.metrics;

import io.canopy.metadata.NamespaceCensus;
import java.util.List;
import java.util.Map;

/**
 * What one namenode knows of the cluster at one moment, as its status page, {@code /status.json} and its metrics
 * show it: the namenodes and the leader, the datanodes, the namespace's size, the block health counts, safe mode, and
 * this namenode's operations over the last refresh interval.
 */
public record ClusterStatus(
    long takenAtMs,
    String clusterId,
    String blockPoolId,
    long namenodeId,
    long leaderId,
    List<Namenode> namenodes,
    List<Datanode> datanodes,
    NamespaceCensus.Counts namespace,
    long namespaceCountedAtMs,
    BlockHealth blocks,
    boolean safeMode,
    String safeModeTip,
    double intervalSeconds,
    Map<String, Operation> operations) {

  /** A live namenode of the group. */
  public record Namenode(long id, String rpcAddress, String httpAddress, int zone, boolean leader, long startedAtMs) {
  }

  /** A registered datanode and its last heartbeat's figures. */
  public record Datanode(String uuid, String hostName, String transferAddress, String httpAddress,
      String networkLocation, boolean live, long capacity, long used, long remaining, long lastContactMs) {
  }

  /** Blocks needing attention (HDFS's dfsadmin -report counts); -1 when they could not be counted. */
  public record BlockHealth(long underReplicated, long missing, long corrupt, long pendingDeletion) {
    public static final BlockHealth UNKNOWN = new BlockHealth(-1, -1, -1, -1);
  }

  /**
   * One operation kind over the last interval: operations committed, their rate, and latency percentiles (ms); plus
   * the totals since the namenode started.
   */
  public record Operation(long count, double perSecond, double p50Ms, double p90Ms, double p99Ms, long total,
      long failures, long retries, long retryCacheAnswers, double roundTripsPerOperation,
      double statementsPerOperation) {
  }

  public long liveDatanodes() {
    return datanodes.stream().filter(Datanode::live).count();
  }

  public long deadDatanodes() {
    return datanodes.size() - liveDatanodes();
  }

  public long capacity() {
    return datanodes.stream().filter(Datanode::live).mapToLong(Datanode::capacity).sum();
  }

  public long used() {
    return datanodes.stream().filter(Datanode::live).mapToLong(Datanode::used).sum();
  }

  public long remaining() {
    return datanodes.stream().filter(Datanode::live).mapToLong(Datanode::remaining).sum();
  }

  /** Operations per second of every kind together, over the last interval. */
  public double operationsPerSecond() {
    return operations.values().stream().mapToDouble(Operation::perSecond).sum();
  }
}
