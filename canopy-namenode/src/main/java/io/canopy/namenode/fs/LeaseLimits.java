package io.canopy.namenode.fs;

import io.canopy.namenode.NameNodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;

/**
 * HDFS's two lease limits. Past the soft limit another client may recover the file (create over it, recoverLease);
 * past the hard limit the leader recovers every file of the holder on its own and deletes the holder's lease.
 */
public record LeaseLimits(long softLimitMs, long hardLimitMs) {
  /**
   * A create does not rewrite a lease renewed less than this long ago (so a client's creates do not all write its
   * lease row); lease rows are never locked on the client path.
   */
  public static final long RENEWAL_GRANULARITY_MS = 1000;
  /**
   * The smallest hard limit: the leader deletes a lease only when it is this old, and a create that skipped
   * rewriting a lease renewed within {@link #RENEWAL_GRANULARITY_MS} must never find it deleted under it.
   */
  public static final long MIN_HARD_LIMIT_MS = 2 * RENEWAL_GRANULARITY_MS;
  /**
   * The holder of files under lease recovery (HDFS's name for the namenode's own lease): recovery moves a file's
   * lease path here and makes it the file's writer, so its old writer can no longer change it and the leader finds
   * every recovery in progress in one partition of lease paths.
   */
  public static final String RECOVERY_HOLDER = HdfsServerConstants.NAMENODE_LEASE_HOLDER;

  public LeaseLimits {
    if (softLimitMs <= 0) {
      throw new IllegalArgumentException(NameNodeConfig.LEASE_SOFT_LIMIT_MS + " must be positive, got "
          + softLimitMs);
    }
    if (hardLimitMs < MIN_HARD_LIMIT_MS) {
      throw new IllegalArgumentException(HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_KEY + " must be at least "
          + MIN_HARD_LIMIT_MS / 1000 + " s, got " + hardLimitMs + " ms");
    }
    if (softLimitMs > hardLimitMs) {
      throw new IllegalArgumentException("the lease soft limit (" + NameNodeConfig.LEASE_SOFT_LIMIT_MS + " = "
          + softLimitMs + " ms) exceeds the hard limit (" + HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_KEY + " = "
          + hardLimitMs / 1000 + " s)");
    }
  }

  public static LeaseLimits from(Configuration conf) {
    return new LeaseLimits(
        NameNodeConfig.leaseSoftLimitMs(conf),
        conf.getLong(HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_KEY, HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_DEFAULT)
            * 1000);
  }
}
