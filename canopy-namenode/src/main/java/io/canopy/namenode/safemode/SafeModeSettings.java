package io.canopy.namenode.safemode;

import io.canopy.namenode.NameNodeConfig;
import org.apache.hadoop.conf.Configuration;

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
  public static final String THRESHOLD_PCT = "dfs.namenode.safemode.threshold-pct";
  public static final String MIN_DATANODES = "dfs.namenode.safemode.min.datanodes";
  public static final String EXTENSION = "dfs.namenode.safemode.extension";
  public static final String SAFE_REPLICATION = "dfs.namenode.safemode.replication.min";

  public SafeModeSettings {
    if (minDatanodes < 0 || extensionMs < 0 || safeReplication < 1 || recheckMs < 1) {
      throw new IllegalArgumentException("invalid safe mode settings: min datanodes " + minDatanodes + ", extension "
          + extensionMs + " ms, safe replication " + safeReplication + ", recheck " + recheckMs + " ms");
    }
  }

  public static SafeModeSettings from(Configuration conf) {
    int minReplication = conf.getInt("dfs.namenode.replication.min", 1);
    return new SafeModeSettings(conf.getFloat(THRESHOLD_PCT, 0.999f), conf.getInt(MIN_DATANODES, 0),
        conf.getTimeDuration(EXTENSION, 30_000, java.util.concurrent.TimeUnit.MILLISECONDS),
        conf.getInt(SAFE_REPLICATION, minReplication),
        conf.getLong(NameNodeConfig.SAFEMODE_RECHECK_MS, NameNodeConfig.SAFEMODE_RECHECK_MS_DEFAULT));
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
