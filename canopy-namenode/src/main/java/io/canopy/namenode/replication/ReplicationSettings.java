package io.canopy.namenode.replication;

import io.canopy.namenode.NameNodeConfig;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * Every bound of the leader's block housekeeping. HDFS's keys keep their names and defaults; Canopy's own are in
 * {@link NameNodeConfig}.
 *
 * @param monitorIntervalMs pause between two runs of the replication duty ({@code dfs.namenode.redundancy.interval
 *     .seconds}, 3 s)
 * @param deadCheckIntervalMs pause between two runs of the dead-datanode duty: {@code
 *     dfs.namenode.heartbeat.recheck-interval} (HDFS's check period), at most the replication interval
 * @param maxStreams transfers a datanode is asked to run at once, as source, and handed per heartbeat at most
 *     ({@code dfs.namenode.replication.max-streams}, 2)
 * @param workMultiplier transfers scheduled per run per live datanode ({@code
 *     dfs.namenode.replication.work.multiplier.per.iteration}, 2)
 * @param pendingTimeoutMs a transfer not confirmed within this time is forgotten and the block copied again ({@code
 *     dfs.namenode.reconstruction.pending.timeout-sec}, 300 s)
 * @param blocksPerRun queued blocks examined per replication run
 * @param queuePageSize queued blocks read per page
 * @param reportGraceMs how long a just-closed file's blocks wait for their pipeline's reports
 * @param deadFilesPerRun files whose dead replicas one dead-datanode run removes
 * @param storagePageSize replicas of a dead storage read per page
 * @param missingLogLimit distinct missing blocks named in the log per leader term (a count is logged after that)
 * @param deletionGraceMs how long an excess replica the leader removed counts as doomed (its deletion handed out,
 *     not yet done by the datanode): 10 heartbeat intervals
 * @param idleBackoffMs how long a queued block that can not be helped now (no live replica, no datanode to copy to)
 *     is left alone, unless the live datanodes or its queue row change first
 * @param idleRowsLimit queued blocks remembered as left alone, at most (beyond, they are looked at every pass)
 * @param minReplication {@code dfs.namenode.replication.min} (1): the good replicas a block keeps before any corrupt
 *     one is deleted for being one too many
 */
public record ReplicationSettings(long monitorIntervalMs, long deadCheckIntervalMs, int maxStreams,
    int workMultiplier, long pendingTimeoutMs, int blocksPerRun, int queuePageSize, long reportGraceMs,
    int deadFilesPerRun, int storagePageSize, int missingLogLimit, long deletionGraceMs, long idleBackoffMs,
    int idleRowsLimit, int minReplication) {
  public static final int QUEUE_PAGE_SIZE = 256;
  public static final int STORAGE_PAGE_SIZE = 1000;
  public static final int MISSING_LOG_LIMIT = 10_000;
  /** Excess replicas remembered as removed (see RecentDeletions), at most. */
  public static final int RECENT_DELETIONS_LIMIT = 100_000;
  public static final long IDLE_BACKOFF_MS = 600_000;
  public static final int DELETION_GRACE_HEARTBEATS = 10;
  public static final int IDLE_ROWS_LIMIT = 100_000;

  public ReplicationSettings {
    require(monitorIntervalMs > 0, "replication interval", monitorIntervalMs);
    require(deadCheckIntervalMs > 0, "dead-datanode check interval", deadCheckIntervalMs);
    require(maxStreams > 0, "dfs.namenode.replication.max-streams", maxStreams);
    require(workMultiplier > 0, "dfs.namenode.replication.work.multiplier.per.iteration", workMultiplier);
    require(pendingTimeoutMs > 0, "dfs.namenode.reconstruction.pending.timeout-sec", pendingTimeoutMs);
    require(blocksPerRun > 0, NameNodeConfig.REPLICATION_BLOCKS_PER_RUN, blocksPerRun);
    require(queuePageSize > 0, "replication queue page size", queuePageSize);
    require(reportGraceMs >= 0, NameNodeConfig.REPLICATION_REPORT_GRACE_MS, reportGraceMs);
    require(deadFilesPerRun > 0, NameNodeConfig.DEAD_DATANODE_FILES_PER_RUN, deadFilesPerRun);
    require(storagePageSize > 0, "storage page size", storagePageSize);
    require(missingLogLimit >= 0, "missing block log limit", missingLogLimit);
    require(deletionGraceMs > 0, "deletion grace", deletionGraceMs);
    require(idleBackoffMs >= 0, "idle backoff", idleBackoffMs);
    require(idleRowsLimit >= 0, "idle files limit", idleRowsLimit);
    require(minReplication > 0, "dfs.namenode.replication.min", minReplication);
  }

  public static ReplicationSettings from(Configuration conf) {
    long monitorMs = conf.getTimeDuration(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY,
        DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_DEFAULT, TimeUnit.SECONDS, TimeUnit.MILLISECONDS);
    long recheckMs = NameNodeConfig.heartbeatRecheckIntervalMs(conf);
    long heartbeatMs = NameNodeConfig.heartbeatIntervalMs(conf);
    return new ReplicationSettings(monitorMs, Math.min(Math.max(1, recheckMs), monitorMs),
        conf.getInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY,
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_DEFAULT),
        conf.getInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION,
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION_DEFAULT),
        conf.getTimeDuration(DFSConfigKeys.DFS_NAMENODE_RECONSTRUCTION_PENDING_TIMEOUT_SEC_KEY,
            DFSConfigKeys.DFS_NAMENODE_RECONSTRUCTION_PENDING_TIMEOUT_SEC_DEFAULT, TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS),
        NameNodeConfig.replicationBlocksPerRun(conf),
        QUEUE_PAGE_SIZE,
        NameNodeConfig.replicationReportGraceMs(conf),
        NameNodeConfig.deadDatanodeFilesPerRun(conf),
        STORAGE_PAGE_SIZE, MISSING_LOG_LIMIT, DELETION_GRACE_HEARTBEATS * heartbeatMs, IDLE_BACKOFF_MS,
        IDLE_ROWS_LIMIT, NameNodeConfig.minReplication(conf));
  }

  private static void require(boolean condition, String what, long value) {
    if (!condition) {
      throw new IllegalArgumentException("Invalid " + what + ": " + value);
    }
  }
}
