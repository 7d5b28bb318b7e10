package io.canopy.namenode.safemode;

import io.canopy.namenode.NameNodeConfig;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * HDFS's startup safe mode keys, with HDFS's defaults.
 *
 * @param thresholdPct {@code dfs.namenode.safemode.threshold-pct} (0.999): the share of complete blocks datanodes must
 *     have reported before safe mode may end
 * @param minDatanodes {@code dfs.namenode.safemode.min.datanodes} (0): live datanodes needed as well
 * @param extensionMs {@code dfs.namenode.safemode.extension} (30 s): how long safe mode lasts once both are reached,
 *     for the last datanodes to report (Canopy ends it earlier when every registered datanode has reported)
 * @param safeReplication {@code dfs.namenode.safemode.replication.min} (default {@code dfs.namenode.replication.min},
 *     1): the good replicas that make a block count as reported
 * @param recheckMs how often the leader counts again while safe mode lasts ({@code
 *     canopy.namenode.safemode.recheck-ms}, 1000, HDFS's fixed interval)
 */
public record SafeModeSettings(double thresholdPct, int minDatanodes, long extensionMs, int safeReplication,
    long recheckMs) {
  public SafeModeSettings {
    if (minDatanodes < 0 || extensionMs < 0 || safeReplication < 1 || recheckMs < 1) {
      throw new IllegalArgumentException("invalid safe mode settings: min datanodes " + minDatanodes + ", extension "
          + extensionMs + " ms, safe replication " + safeReplication + ", recheck " + recheckMs + " ms");
    }
  }

  public static SafeModeSettings from(Configuration conf) {
    int minReplication = NameNodeConfig.minReplication(conf);
    return new SafeModeSettings(
        conf.getFloat(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_DEFAULT),
        conf.getInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_DEFAULT),
        conf.getTimeDuration(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_DEFAULT, TimeUnit.MILLISECONDS),
        conf.getInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_REPLICATION_MIN_KEY, minReplication),
        NameNodeConfig.safeModeRecheckMs(conf));
  }

  /** HDFS's blockThreshold: the reported blocks needed out of {@code totalBlocks}. */
  public long blockThreshold(long totalBlocks) {
    return (long) (totalBlocks * thresholdPct);
  }

  /** Whether {@code safeBlocks} of {@code totalBlocks} and {@code liveDatanodes} meet both thresholds. */
  public boolean thresholdsMet(long safeBlocks, long totalBlocks, int liveDatanodes) {
    return safeBlocks >= blockThreshold(totalBlocks) && liveDatanodes >= minDatanodes;
  }
}
