package io.canopy.namenode;

import io.canopy.metadata.MetadataConfig;
import io.canopy.namenode.membership.ElectionSettings;
import io.canopy.namenode.replication.PlacementScan;
import io.canopy.namenode.replication.ReplicationSettings;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.net.NetUtils;

/**
 * Every {@code canopy.namenode.*} key, with its default and a typed getter: code reads a key only through its getter
 * here, so its name and default live together. The keys every metadata engine shares ({@code canopy.metadata.engine},
 * {@code canopy.metadata.pool.size}) are {@link MetadataConfig}'s. HDFS keys ({@code dfs.*}) keep their HDFS names and
 * defaults ({@link DFSConfigKeys}) and are read where they are used; those read in several places have a getter at
 * the end of this class.
 */
public final class NameNodeConfig {
  /** host:port of the namenode's client RPC server: ClientProtocol, the namenode list, NamenodeProtocol. */
  public static final String RPC_ADDRESS = "canopy.namenode.rpc-address";
  public static final String RPC_ADDRESS_DEFAULT = "127.0.0.1:8020";
  /**
   * host:port of the service RPC server, where datanodes speak DatanodeProtocol (refused on the client port), and
   * NamenodeProtocol; HDFS's {@code dfs.namenode.servicerpc-address}. Unset: a free port on the RPC address's host,
   * logged at start; datanodes must be told it ({@code dfs.namenode.servicerpc-address[.NAMESERVICE.NN]}).
   */
  public static final String SERVICE_RPC_ADDRESS = "canopy.namenode.servicerpc-address";
  /** RPC handler threads; each runs one operation (and holds one database connection) at a time. */
  public static final String HANDLER_COUNT = "canopy.namenode.handler.count";
  public static final int HANDLER_COUNT_DEFAULT = 32;
  /** Handler threads of the service RPC server (datanode reports); HDFS's dfs.namenode.service.handler.count. */
  public static final String SERVICE_HANDLER_COUNT = "canopy.namenode.service.handler.count";
  public static final int SERVICE_HANDLER_COUNT_DEFAULT = 10;
  /**
   * Connections beyond the threads' own in the namenode's default pool ({@link MetadataConfig#POOL_SIZE} unset: the
   * handler counts, client and service, and the replica report threads, plus this), so an operation holding a
   * connection can always get the second one id allocation or a datanode-view reload needs.
   */
  public static final int POOL_RESERVE = 16;
  /** When set, the namenode writes its per-operation counters to this file every second (see MetricsFile). */
  public static final String METRICS_FILE = "canopy.namenode.metrics-file";
  /** Ids fetched from the database per allocation round trip. */
  public static final String ID_BATCH_SIZE = "canopy.namenode.id-batch-size";
  public static final int ID_BATCH_SIZE_DEFAULT = 1000;
  /** Attempts of one operation when the database reports a transient error (deadlock, lock timeout...). */
  public static final String TRANSACTION_MAX_ATTEMPTS = "canopy.namenode.transaction.max-attempts";
  public static final int TRANSACTION_MAX_ATTEMPTS_DEFAULT = 10;

  /** Entries of the inode hints cache (name + parent id to inode id), least recently used evicted. */
  public static final String HINT_CACHE_SIZE = "canopy.namenode.hint-cache.size";
  public static final long HINT_CACHE_SIZE_DEFAULT = 1_000_000L;
  /** Seed of the namenode's randomness (placement, backoff jitter); unset: a new seed per start, logged. */
  public static final String RANDOM_SEED = "canopy.namenode.random-seed";

  /**
   * How long a non-idempotent call's result stays in the retry cache; default HDFS's 10 minutes
   * ({@code dfs.namenode.retrycache.expirytime.millis}).
   */
  public static final String RETRY_CACHE_EXPIRY_MS = "canopy.namenode.retry-cache.expiry-ms";
  public static final long RETRY_CACHE_EXPIRY_MS_DEFAULT = 600_000;

  /** How often each namenode deletes expired retry-cache entries, and at most how many per round. */
  public static final String RETRY_CACHE_PURGE_INTERVAL_MS = "canopy.namenode.retry-cache.purge-interval-ms";
  public static final long RETRY_CACHE_PURGE_INTERVAL_MS_DEFAULT = 60_000;
  public static final int RETRY_CACHE_PURGE_BATCH = 10_000;
  /** Batches one purge round deletes at most (a million entries a minute, far above any namenode's call rate). */
  public static final int RETRY_CACHE_PURGE_MAX_BATCHES = 100;

  /**
   * How long complete() waits, inside the namenode, for datanodes to confirm the last block before answering
   * "not yet" (the client then backs off 400 ms and more). 0 answers at once, as HDFS does.
   */
  public static final String COMPLETE_WAIT_MS = "canopy.namenode.complete.wait-ms";
  public static final long COMPLETE_WAIT_MS_DEFAULT = 500;

  /**
   * How many files of one datanode report a namenode applies side by side (a transaction each), so a datanode's
   * reports, sent one at a time, do not wait for one commit per file.
   */
  public static final String REPLICA_REPORT_THREADS = "canopy.namenode.replica-reports.threads";
  public static final int REPLICA_REPORT_THREADS_DEFAULT = 8;

  /** How often a namenode re-reads the cluster-wide safe mode (so it learns of one entered through another). */
  public static final String SAFEMODE_REFRESH_MS = "canopy.namenode.safemode.refresh-ms";
  public static final long SAFEMODE_REFRESH_MS_DEFAULT = 1000;
  /** How often the leader counts the reported blocks while the startup safe mode lasts (HDFS's fixed 1 s). */
  public static final String SAFEMODE_RECHECK_MS = "canopy.namenode.safemode.recheck-ms";
  public static final long SAFEMODE_RECHECK_MS_DEFAULT = 1000;
  /**
   * How long the leader waits for the full block report it asked a datanode for (by answering a heartbeat with
   * "register again") before it asks again.
   */
  public static final String FULL_REPORT_ASK_AGAIN_MS = "canopy.namenode.full-report.ask-again-ms";
  public static final long FULL_REPORT_ASK_AGAIN_MS_DEFAULT = 60_000;

  /**
   * Leader election round: every namenode increments its heartbeat counter this often (docs/references.md
   * [HopsFS-Thesis] s.4.1.8).
   */
  public static final String ELECTION_ROUND_MS = "canopy.namenode.election.round-ms";
  public static final long ELECTION_ROUND_MS_DEFAULT = 2_000;
  /** Rounds without a counter increment after which a namenode is dead to the others. */
  public static final String ELECTION_MISSED_ROUNDS = "canopy.namenode.election.missed-rounds";
  public static final int ELECTION_MISSED_ROUNDS_DEFAULT = 2;
  /** Ceiling of the round time, which the leader raises when namenodes are evicted for slowness. */
  public static final String ELECTION_MAX_ROUND_MS = "canopy.namenode.election.max-round-ms";
  public static final long ELECTION_MAX_ROUND_MS_DEFAULT = 60_000;
  /** The namenode's location domain (availability zone) id, published to clients; 0 = none. */
  public static final String LOCATION_DOMAIN_ID = "canopy.namenode.location-domain-id";
  public static final int LOCATION_DOMAIN_ID_DEFAULT = 0;
  /**
   * host:port of the namenode's HTTP server (status page, WebHDFS, /jmx; HDFS's dfs.namenode.http-address): port 0
   * picks a free port; empty serves no HTTP. The bound address is published in the namenode's descriptor.
   */
  public static final String HTTP_ADDRESS = "canopy.namenode.http-address";
  public static final String HTTP_ADDRESS_DEFAULT = "127.0.0.1:9870";
  /**
   * How often the namenode takes its cluster status (status page, /status.json, metrics): datanodes, namenodes,
   * blocks needing replication, and its operations' rates and latency percentiles over the interval.
   */
  public static final String STATUS_INTERVAL_MS = "canopy.namenode.status-interval-ms";
  public static final long STATUS_INTERVAL_MS_DEFAULT = 10_000;
  /** How often the status counts the whole namespace (files, directories, blocks): each count scans whole tables. */
  public static final String CENSUS_INTERVAL_MS = "canopy.namenode.census-interval-ms";
  public static final long CENSUS_INTERVAL_MS_DEFAULT = 60_000;
  /**
   * With block access tokens on ({@code dfs.block.access.token.enable}), how often a namenode reloads the shared block
   * keys and adds the next one when due: well under HDFS's key-update interval (minutes), so datanodes learn a key long
   * before it signs.
   */
  public static final String BLOCK_KEYS_REFRESH_MS = "canopy.namenode.block-keys.refresh-ms";
  public static final long BLOCK_KEYS_REFRESH_MS_DEFAULT = 60_000;

  /**
   * HDFS's lease soft limit: another client may take over (recover) a file whose writer has not renewed its lease
   * for this long. HDFS hard-codes it (HdfsConstants.LEASE_SOFTLIMIT_PERIOD, 60 s); Canopy makes it a key so tests
   * can shorten it. The hard limit keeps its HDFS key, {@code dfs.namenode.lease-hard-limit-sec} (1200 s), and
   * the leader checks leases every {@code dfs.namenode.lease-recheck-interval-ms} (2000 ms).
   */
  public static final String LEASE_SOFT_LIMIT_MS = "canopy.namenode.lease.soft-limit-ms";
  public static final long LEASE_SOFT_LIMIT_MS_DEFAULT = 60_000;
  /**
   * How long the leader waits for a block recovery it sent to a datanode to be committed before it starts a new
   * attempt (new recovery id, another primary datanode). Default: {@link #LEASE_RECOVERY_TIMEOUT_HEARTBEATS}
   * heartbeat intervals, HDFS's rule.
   */
  public static final String LEASE_RECOVERY_TIMEOUT_MS = "canopy.namenode.lease.recovery-timeout-ms";
  /** HDFS's block recovery timeout: this many heartbeat intervals. */
  public static final int LEASE_RECOVERY_TIMEOUT_HEARTBEATS = 30;

  /**
   * Queued blocks the leader's replication duty examines per run (one transaction per file); the rest wait for the
   * next run, every {@code dfs.namenode.redundancy.interval.seconds}.
   */
  public static final String REPLICATION_BLOCKS_PER_RUN = "canopy.namenode.replication.blocks-per-run";
  public static final int REPLICATION_BLOCKS_PER_RUN_DEFAULT = 1000;
  /**
   * Good replicas the leader's placement scan reads per run (every 3 s), looking for blocks all in one zone or rack
   * while the cluster has more: it runs when a leader term starts and when the live datanodes come to span two
   * zones (or racks) again.
   */
  public static final String PLACEMENT_SCAN_REPLICAS_PER_RUN = "canopy.namenode.placement-scan.replicas-per-run";
  public static final int PLACEMENT_SCAN_REPLICAS_PER_RUN_DEFAULT = 10_000;
  /**
   * How long after a file is closed its blocks may stay short of replicas before the leader copies them: the time
   * the pipeline's datanodes have to report the replicas they wrote.
   */
  public static final String REPLICATION_REPORT_GRACE_MS = "canopy.namenode.replication.report-grace-ms";
  public static final long REPLICATION_REPORT_GRACE_MS_DEFAULT = 5_000;
  /** Files whose replicas on dead datanodes the leader's dead-datanode duty removes per run (one transaction each). */
  public static final String DEAD_DATANODE_FILES_PER_RUN = "canopy.namenode.dead-datanode.files-per-run";
  public static final int DEAD_DATANODE_FILES_PER_RUN_DEFAULT = 1000;

  /**
   * Whether createSymlink may create links. HDFS refuses it unless its JVM-wide switch is on
   * ({@code FileSystem.enableSymlinks()}, which only tests call), answering "Symlinks not supported"; Canopy makes
   * it a key, off by default as in HDFS. Existing links are resolved either way.
   */
  public static final String SYMLINKS_ENABLED = "canopy.namenode.symlinks.enabled";
  public static final boolean SYMLINKS_ENABLED_DEFAULT = false;

  /**
   * Rows of subtrees the namenode holds in memory at once, all operations together: the inodes of the subtrees
   * transactions read whole (a recursive delete, getContentSummary, getQuotaUsage, setQuota, a rename between quota
   * directories), and the blocks and replicas of the files a recursive delete removes (estimated from their length
   * before they are read). An operation needing more on its own is refused with an error naming this key; one that
   * finds the others holding too much is answered RetriableException (try again). Until the subtree protocol
   * (docs/references.md [HopsFS-Thesis] s.4.1.5) works on subtrees in parts. Default: one row per
   * {@link #SUBTREE_HEAP_BYTES_PER_ROW} bytes of the namenode's maximum heap (1,048,576 rows with the 1 GB of
   * {@code canopy up}), from measurements in docs/design/011-limits.md.
   */
  public static final String SUBTREE_MAX_ROWS = "canopy.namenode.subtree.max-rows";
  /** Heap per subtree row the default of {@link #SUBTREE_MAX_ROWS} allows: measured peaks and room for the rest. */
  public static final long SUBTREE_HEAP_BYTES_PER_ROW = 1024;

  /**
   * Inodes above which a call leaves its single transaction (design 017): a recursive delete, a move between quota
   * directories or a first quota for the subtree protocol (the directory flagged, quiesced and worked on in batches,
   * its parent held only briefly), a content summary or quota usage for read-only batches. Chosen by measurement
   * (design 017, "The threshold"): a single delete of 2,000 files holds its parent ~30 ms here.
   */
  public static final String SUBTREE_PROTOCOL_THRESHOLD = "canopy.namenode.subtree.protocol-threshold";
  public static final long SUBTREE_PROTOCOL_THRESHOLD_DEFAULT = 2_000;
  /** Inodes one transaction of the subtree protocol locks or deletes at most (design 017). */
  public static final String SUBTREE_BATCH_SIZE = "canopy.namenode.subtree.batch-size";
  public static final int SUBTREE_BATCH_SIZE_DEFAULT = 1_000;
  /** Transactions one subtree operation runs at once: directories of one level are quiesced and emptied in parallel. */
  public static final String SUBTREE_THREADS = "canopy.namenode.subtree.threads";
  public static final int SUBTREE_THREADS_DEFAULT = 4;
  /**
   * How long an operation meeting a directory held by a subtree operation on its path waits for it before the client
   * is answered RetriableException (try again).
   */
  public static final String SUBTREE_WAIT_MS = "canopy.namenode.subtree.wait-ms";
  public static final long SUBTREE_WAIT_MS_DEFAULT = 5_000;
  /** How often the leader clears the flags and rows of subtree operations whose namenode died. */
  public static final String SUBTREE_CLEANUP_INTERVAL_MS = "canopy.namenode.subtree.cleanup-interval-ms";
  public static final long SUBTREE_CLEANUP_INTERVAL_MS_DEFAULT = 10_000;
  /**
   * How often the leader folds the replica bucket changes the database's triggers recorded into the buckets (design
   * 018): the changes a full report reads besides the buckets are those of about this long.
   */
  public static final String BUCKET_FOLD_INTERVAL_MS = "canopy.namenode.replica-buckets.fold-interval-ms";
  public static final long BUCKET_FOLD_INTERVAL_MS_DEFAULT = 2_000;

  private NameNodeConfig() {
  }

  /** Where the client RPC server listens. */
  public static InetSocketAddress rpcAddress(Configuration conf) {
    return NetUtils.createSocketAddr(conf.getTrimmed(RPC_ADDRESS, RPC_ADDRESS_DEFAULT), 0, RPC_ADDRESS);
  }

  /** Where the service RPC server listens: {@link #SERVICE_RPC_ADDRESS}, else a free port on the RPC host. */
  public static InetSocketAddress serviceRpcAddress(Configuration conf) {
    String configured = conf.getTrimmed(SERVICE_RPC_ADDRESS, "");
    if (!configured.isEmpty()) {
      return NetUtils.createSocketAddr(configured, 0, SERVICE_RPC_ADDRESS);
    }
    return NetUtils.createSocketAddr(rpcAddress(conf).getHostString(), 0);
  }

  /** {@link #HANDLER_COUNT}. */
  public static int handlerCount(Configuration conf) {
    return conf.getInt(HANDLER_COUNT, HANDLER_COUNT_DEFAULT);
  }

  /** {@link #SERVICE_HANDLER_COUNT}. */
  public static int serviceHandlerCount(Configuration conf) {
    return conf.getInt(SERVICE_HANDLER_COUNT, SERVICE_HANDLER_COUNT_DEFAULT);
  }

  /** {@link MetadataConfig#ENGINE}: the metadata engine the namenode opens its store with. */
  public static String metadataEngine(Configuration conf) {
    return conf.get(MetadataConfig.ENGINE, MetadataConfig.ENGINE_DEFAULT);
  }

  /** The {@code canopy.metadata.*} keys of {@code conf}, for the metadata engine. */
  public static Map<String, String> metadataSettings(Configuration conf) {
    Map<String, String> settings = new HashMap<>();
    for (Map.Entry<String, String> entry : conf.getPropsWithPrefix(MetadataConfig.PREFIX).entrySet()) {
      settings.put(MetadataConfig.PREFIX + entry.getKey(), entry.getValue());
    }
    return settings;
  }

  /** The metadata settings a namenode opens its store with: the configured ones, and a pool sized to its threads. */
  public static Map<String, String> namenodeMetadataSettings(Configuration conf) {
    Map<String, String> settings = metadataSettings(conf);
    settings.putIfAbsent(MetadataConfig.POOL_SIZE, String.valueOf(handlerCount(conf) + serviceHandlerCount(conf)
        + replicaReportThreads(conf) + subtreeSettings(conf).threads() + POOL_RESERVE));
    return settings;
  }

  /** {@link #METRICS_FILE}, or null when unset. */
  public static String metricsFile(Configuration conf) {
    return conf.get(METRICS_FILE);
  }

  /** {@link #ID_BATCH_SIZE}. */
  public static int idBatchSize(Configuration conf) {
    return conf.getInt(ID_BATCH_SIZE, ID_BATCH_SIZE_DEFAULT);
  }

  /** {@link #TRANSACTION_MAX_ATTEMPTS}. */
  public static int transactionMaxAttempts(Configuration conf) {
    return conf.getInt(TRANSACTION_MAX_ATTEMPTS, TRANSACTION_MAX_ATTEMPTS_DEFAULT);
  }

  /** {@link #HINT_CACHE_SIZE}. */
  public static long hintCacheSize(Configuration conf) {
    return conf.getLong(HINT_CACHE_SIZE, HINT_CACHE_SIZE_DEFAULT);
  }

  /** {@link #RANDOM_SEED}, or {@code System.nanoTime()} when unset (a new seed per start). */
  public static long randomSeed(Configuration conf) {
    return conf.getLong(RANDOM_SEED, System.nanoTime());
  }

  /** {@link #RETRY_CACHE_EXPIRY_MS}. */
  public static long retryCacheExpiryMs(Configuration conf) {
    return conf.getLong(RETRY_CACHE_EXPIRY_MS, RETRY_CACHE_EXPIRY_MS_DEFAULT);
  }

  /** {@link #RETRY_CACHE_PURGE_INTERVAL_MS}. */
  public static long retryCachePurgeIntervalMs(Configuration conf) {
    return conf.getLong(RETRY_CACHE_PURGE_INTERVAL_MS, RETRY_CACHE_PURGE_INTERVAL_MS_DEFAULT);
  }

  /** {@link #COMPLETE_WAIT_MS}. */
  public static long completeWaitMs(Configuration conf) {
    return conf.getLong(COMPLETE_WAIT_MS, COMPLETE_WAIT_MS_DEFAULT);
  }

  /** {@link #REPLICA_REPORT_THREADS}. */
  public static int replicaReportThreads(Configuration conf) {
    return conf.getInt(REPLICA_REPORT_THREADS, REPLICA_REPORT_THREADS_DEFAULT);
  }

  /** {@link #SAFEMODE_REFRESH_MS}. */
  public static long safeModeRefreshMs(Configuration conf) {
    return conf.getLong(SAFEMODE_REFRESH_MS, SAFEMODE_REFRESH_MS_DEFAULT);
  }

  /** {@link #STATUS_INTERVAL_MS}, at least 100 ms. */
  public static long statusIntervalMs(Configuration conf) {
    return positive(conf, STATUS_INTERVAL_MS, STATUS_INTERVAL_MS_DEFAULT, 100);
  }

  /** {@link #CENSUS_INTERVAL_MS}, at least 1 s. */
  public static long blockKeysRefreshMs(Configuration conf) {
    return positive(conf, BLOCK_KEYS_REFRESH_MS, BLOCK_KEYS_REFRESH_MS_DEFAULT, 100);
  }

  public static long censusIntervalMs(Configuration conf) {
    return positive(conf, CENSUS_INTERVAL_MS, CENSUS_INTERVAL_MS_DEFAULT, 1_000);
  }

  private static long positive(Configuration conf, String key, long defaultValue, long minimum) {
    long value = conf.getLong(key, defaultValue);
    if (value < minimum) {
      throw new IllegalArgumentException(key + " must be at least " + minimum + " ms, got " + value);
    }
    return value;
  }

  /** {@link #SAFEMODE_RECHECK_MS}. */
  public static long safeModeRecheckMs(Configuration conf) {
    return conf.getLong(SAFEMODE_RECHECK_MS, SAFEMODE_RECHECK_MS_DEFAULT);
  }

  /** {@link #FULL_REPORT_ASK_AGAIN_MS}. */
  public static long fullReportAskAgainMs(Configuration conf) {
    return conf.getLong(FULL_REPORT_ASK_AGAIN_MS, FULL_REPORT_ASK_AGAIN_MS_DEFAULT);
  }

  /** The election parameters of {@code conf}; the lease margin is half a round. */
  public static ElectionSettings electionSettings(Configuration conf) {
    long roundMs = conf.getLong(ELECTION_ROUND_MS, ELECTION_ROUND_MS_DEFAULT);
    return new ElectionSettings(roundMs, conf.getInt(ELECTION_MISSED_ROUNDS, ELECTION_MISSED_ROUNDS_DEFAULT),
        Math.max(roundMs, conf.getLong(ELECTION_MAX_ROUND_MS, ELECTION_MAX_ROUND_MS_DEFAULT)), roundMs / 2);
  }

  /** {@link #LOCATION_DOMAIN_ID}. */
  public static int locationDomainId(Configuration conf) {
    return conf.getInt(LOCATION_DOMAIN_ID, LOCATION_DOMAIN_ID_DEFAULT);
  }

  /** {@link #HTTP_ADDRESS}: where the HTTP server listens, or null when it is configured empty (no HTTP). */
  public static InetSocketAddress httpAddress(Configuration conf) {
    String configured = conf.getTrimmed(HTTP_ADDRESS, HTTP_ADDRESS_DEFAULT);
    return configured.isEmpty() ? null : NetUtils.createSocketAddr(configured, 0, HTTP_ADDRESS);
  }

  /** {@link #LEASE_SOFT_LIMIT_MS}. */
  public static long leaseSoftLimitMs(Configuration conf) {
    return conf.getLong(LEASE_SOFT_LIMIT_MS, LEASE_SOFT_LIMIT_MS_DEFAULT);
  }

  /** {@link #LEASE_RECOVERY_TIMEOUT_MS}; default {@link #LEASE_RECOVERY_TIMEOUT_HEARTBEATS} heartbeat intervals. */
  public static long leaseRecoveryTimeoutMs(Configuration conf) {
    return conf.getLong(LEASE_RECOVERY_TIMEOUT_MS, LEASE_RECOVERY_TIMEOUT_HEARTBEATS * heartbeatIntervalMs(conf));
  }

  /** The leader's block housekeeping bounds: Canopy's keys above and HDFS's own keys with HDFS's defaults. */
  public static ReplicationSettings replicationSettings(Configuration conf) {
    return ReplicationSettings.from(conf);
  }

  /** {@link #REPLICATION_BLOCKS_PER_RUN}. */
  public static int replicationBlocksPerRun(Configuration conf) {
    return conf.getInt(REPLICATION_BLOCKS_PER_RUN, REPLICATION_BLOCKS_PER_RUN_DEFAULT);
  }

  /** {@link #PLACEMENT_SCAN_REPLICAS_PER_RUN}, at least {@link PlacementScan#MIN_REPLICAS_PER_RUN}. */
  public static int placementScanReplicasPerRun(Configuration conf) {
    int replicas = conf.getInt(PLACEMENT_SCAN_REPLICAS_PER_RUN, PLACEMENT_SCAN_REPLICAS_PER_RUN_DEFAULT);
    if (replicas < PlacementScan.MIN_REPLICAS_PER_RUN) {
      throw new IllegalArgumentException(PLACEMENT_SCAN_REPLICAS_PER_RUN + " must be at least "
          + PlacementScan.MIN_REPLICAS_PER_RUN + ", got " + replicas);
    }
    return replicas;
  }

  /** {@link #REPLICATION_REPORT_GRACE_MS}. */
  public static long replicationReportGraceMs(Configuration conf) {
    return conf.getLong(REPLICATION_REPORT_GRACE_MS, REPLICATION_REPORT_GRACE_MS_DEFAULT);
  }

  /** {@link #DEAD_DATANODE_FILES_PER_RUN}. */
  public static int deadDatanodeFilesPerRun(Configuration conf) {
    return conf.getInt(DEAD_DATANODE_FILES_PER_RUN, DEAD_DATANODE_FILES_PER_RUN_DEFAULT);
  }

  /** {@link #SYMLINKS_ENABLED}. */
  public static boolean symlinksEnabled(Configuration conf) {
    return conf.getBoolean(SYMLINKS_ENABLED, SYMLINKS_ENABLED_DEFAULT);
  }

  /** {@link #SUBTREE_CLEANUP_INTERVAL_MS}. */
  public static long subtreeCleanupIntervalMs(Configuration conf) {
    return conf.getLong(SUBTREE_CLEANUP_INTERVAL_MS, SUBTREE_CLEANUP_INTERVAL_MS_DEFAULT);
  }

  /** {@link #BUCKET_FOLD_INTERVAL_MS}. */
  public static long bucketFoldIntervalMs(Configuration conf) {
    return conf.getLong(BUCKET_FOLD_INTERVAL_MS, BUCKET_FOLD_INTERVAL_MS_DEFAULT);
  }

  /** The subtree protocol's settings (design 017). */
  public static SubtreeSettings subtreeSettings(Configuration conf) {
    return new SubtreeSettings(conf.getLong(SUBTREE_PROTOCOL_THRESHOLD, SUBTREE_PROTOCOL_THRESHOLD_DEFAULT),
        conf.getInt(SUBTREE_BATCH_SIZE, SUBTREE_BATCH_SIZE_DEFAULT), conf.getInt(SUBTREE_THREADS,
            SUBTREE_THREADS_DEFAULT), conf.getLong(SUBTREE_WAIT_MS, SUBTREE_WAIT_MS_DEFAULT));
  }

  /** {@link #SUBTREE_MAX_ROWS} of {@code conf}, or its default for a namenode of {@code maxHeapBytes}. */
  public static long subtreeMaxRows(Configuration conf, long maxHeapBytes) {
    return conf.getLong(SUBTREE_MAX_ROWS, Math.max(1, maxHeapBytes / SUBTREE_HEAP_BYTES_PER_ROW));
  }

  /** HDFS's {@code dfs.heartbeat.interval} (default 3 s), in milliseconds. */
  public static long heartbeatIntervalMs(Configuration conf) {
    return conf.getTimeDuration(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
        TimeUnit.SECONDS, TimeUnit.MILLISECONDS);
  }

  /** HDFS's {@code dfs.namenode.heartbeat.recheck-interval} (default 5 minutes), in milliseconds. */
  public static long heartbeatRecheckIntervalMs(Configuration conf) {
    return conf.getLong(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_DEFAULT);
  }

  /** HDFS's {@code dfs.namenode.replication.min} (default 1): the replicas that make a block safe. */
  public static int minReplication(Configuration conf) {
    return conf.getInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_KEY,
        DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_DEFAULT);
  }
}
