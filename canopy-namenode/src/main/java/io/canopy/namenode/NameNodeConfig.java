package io.canopy.namenode;

import io.canopy.namenode.membership.ElectionSettings;
import io.canopy.namenode.replication.ReplicationSettings;
import io.canopy.namenode.tx.TransactionRunner;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;

/**
 * Every {@code canopy.namenode.*} and {@code canopy.metadata.*} key the namenode reads, with its default. HDFS keys
 * ({@code dfs.*}) keep their HDFS names and defaults and are read where they are used.
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
  /** Metadata engine, found with ServiceLoader. */
  public static final String METADATA_ENGINE = "canopy.metadata.engine";
  public static final String METADATA_ENGINE_DEFAULT = "postgres";
  /** Prefix of the keys handed to the metadata engine (JDBC URL, pool size, ...). */
  public static final String METADATA_PREFIX = "canopy.metadata.";
  /**
   * Connections the namenode may hold to the metadata database. Default: the handler counts (client and service)
   * and the replica report threads, plus {@link #POOL_RESERVE}, so an operation holding a connection can always get the second one id allocation or
   * a datanode-view reload needs.
   */
  public static final String METADATA_POOL_SIZE = "canopy.metadata.pool.size";
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

  /** How long a non-idempotent call's result stays in the retry cache (HDFS's default: 10 minutes). */
  public static final String RETRY_CACHE_EXPIRY_MS = "canopy.namenode.retry-cache.expiry-ms";
  public static final long RETRY_CACHE_EXPIRY_MS_DEFAULT = TransactionRunner.DEFAULT_RETRY_CACHE_EXPIRY_MS;

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

  /** Leader election round: every namenode increments its heartbeat counter this often (paper 000 s.4.1.8). */
  public static final String ELECTION_ROUND_MS = "canopy.namenode.election.round-ms";
  public static final long ELECTION_ROUND_MS_DEFAULT = ElectionSettings.ROUND_MS_DEFAULT;
  /** Rounds without a counter increment after which a namenode is dead to the others. */
  public static final String ELECTION_MISSED_ROUNDS = "canopy.namenode.election.missed-rounds";
  public static final int ELECTION_MISSED_ROUNDS_DEFAULT = ElectionSettings.MISSED_ROUNDS_DEFAULT;
  /** Ceiling of the round time, which the leader raises when namenodes are evicted for slowness. */
  public static final String ELECTION_MAX_ROUND_MS = "canopy.namenode.election.max-round-ms";
  public static final long ELECTION_MAX_ROUND_MS_DEFAULT = ElectionSettings.MAX_ROUND_MS_DEFAULT;
  /** The namenode's location domain (availability zone) id, published to clients; 0 = none. */
  public static final String LOCATION_DOMAIN_ID = "canopy.namenode.location-domain-id";
  /** host:port of the namenode's web endpoint, published in its descriptor (Canopy serves none yet: empty). */
  public static final String HTTP_ADDRESS = "canopy.namenode.http-address";

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
   * attempt (new recovery id, another primary datanode). Default: 30 heartbeat intervals, HDFS's rule.
   */
  public static final String LEASE_RECOVERY_TIMEOUT_MS = "canopy.namenode.lease.recovery-timeout-ms";

  /**
   * Queued blocks the leader's replication duty examines per run (one transaction per file); the rest wait for the
   * next run, every {@code dfs.namenode.redundancy.interval.seconds}.
   */
  public static final String REPLICATION_BLOCKS_PER_RUN = "canopy.namenode.replication.blocks-per-run";
  public static final int REPLICATION_BLOCKS_PER_RUN_DEFAULT = 1000;
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
   * finds the others holding too much is answered RetriableException (try again). Until the subtree protocol (paper
   * 000 s.4.1.5) works on subtrees in parts. Default: one row per {@link #SUBTREE_HEAP_BYTES_PER_ROW} bytes of the
   * namenode's maximum heap (1,048,576 rows with the 1 GB of {@code canopy up}), from measurements in
   * docs/design/011-limits.md.
   */
  public static final String SUBTREE_MAX_ROWS = "canopy.namenode.subtree.max-rows";
  /** Heap per subtree row the default of {@link #SUBTREE_MAX_ROWS} allows: measured peaks and room for the rest. */
  public static final long SUBTREE_HEAP_BYTES_PER_ROW = 1024;

  private NameNodeConfig() {
  }

  /** The leader's block housekeeping bounds: Canopy's keys above and HDFS's own keys with HDFS's defaults. */
  public static ReplicationSettings replicationSettings(Configuration conf) {
    return ReplicationSettings.from(conf);
  }

  /** The election parameters of {@code conf}; the lease margin is half a round. */
  public static ElectionSettings electionSettings(Configuration conf) {
    long roundMs = conf.getLong(ELECTION_ROUND_MS, ELECTION_ROUND_MS_DEFAULT);
    return new ElectionSettings(roundMs, conf.getInt(ELECTION_MISSED_ROUNDS, ELECTION_MISSED_ROUNDS_DEFAULT),
        Math.max(roundMs, conf.getLong(ELECTION_MAX_ROUND_MS, ELECTION_MAX_ROUND_MS_DEFAULT)), roundMs / 2);
  }

  /** {@link #SUBTREE_MAX_ROWS} of {@code conf}, or its default for a namenode of {@code maxHeapBytes}. */
  public static long subtreeMaxRows(Configuration conf, long maxHeapBytes) {
    return conf.getLong(SUBTREE_MAX_ROWS, Math.max(1, maxHeapBytes / SUBTREE_HEAP_BYTES_PER_ROW));
  }

  /** The metadata settings a namenode opens its store with: the configured ones, and a pool sized to its handlers. */
  public static Map<String, String> namenodeMetadataSettings(Configuration conf) {
    Map<String, String> settings = metadataSettings(conf);
    settings.putIfAbsent(METADATA_POOL_SIZE, String.valueOf(conf.getInt(HANDLER_COUNT, HANDLER_COUNT_DEFAULT)
        + conf.getInt(SERVICE_HANDLER_COUNT, SERVICE_HANDLER_COUNT_DEFAULT)
        + conf.getInt(REPLICA_REPORT_THREADS, REPLICA_REPORT_THREADS_DEFAULT) + POOL_RESERVE));
    return settings;
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

  /** The {@code canopy.metadata.*} keys of {@code conf}, for the metadata engine. */
  public static Map<String, String> metadataSettings(Configuration conf) {
    Map<String, String> settings = new HashMap<>();
    for (Map.Entry<String, String> entry : conf.getPropsWithPrefix(METADATA_PREFIX).entrySet()) {
      settings.put(METADATA_PREFIX + entry.getKey(), entry.getValue());
    }
    return settings;
  }
}
