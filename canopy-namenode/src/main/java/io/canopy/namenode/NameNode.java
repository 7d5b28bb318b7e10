package io.canopy.namenode;

import com.github.benmanes.caffeine.cache.Ticker;
import io.canopy.client.SecuritySettings;
import io.canopy.metadata.BlockKeys;
import io.canopy.metadata.DelegationTokenStore;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.entity.NamespaceIdentity;
import io.canopy.namenode.audit.AuditLog;
import io.canopy.namenode.audit.AuditedClientProtocol;
import io.canopy.namenode.blocks.BlockLocator;
import io.canopy.namenode.security.DelegationTokenCalls;
import io.canopy.namenode.smallfiles.DataTransferProtection;
import io.canopy.namenode.security.KerberosLogin;
import io.canopy.namenode.security.SharedDelegationTokens;
import io.canopy.namenode.blocks.BlockPlacement;
import io.canopy.namenode.blocks.BlockServices;
import io.canopy.namenode.blocks.BlockTokenSigning;
import io.canopy.namenode.blocks.BlockTokens;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.blocks.ReplicaArrivals;
import io.canopy.namenode.datanode.BucketChangeFolder;
import io.canopy.namenode.datanode.DatanodeProtocolServer;
import io.canopy.namenode.datanode.FullReportLeases;
import io.canopy.namenode.datanode.FullReportTracker;
import io.canopy.namenode.datanode.ReplicaReportProcessor;
import io.canopy.namenode.datanode.ReportAppliers;
import io.canopy.namenode.datanode.ReportCounters;
import io.canopy.namenode.datanode.UnknownReplicas;
import io.canopy.namenode.fault.FaultControl;
import io.canopy.namenode.fs.IdGenerator;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.http.FsckServlet;
import io.canopy.namenode.http.HttpCallers;
import io.canopy.namenode.http.NamenodeHttpServer;
import io.canopy.namenode.http.WebHdfs;
import io.canopy.namenode.leader.DatanodeCommandSource;
import io.canopy.namenode.leader.DeadSubtreeLockCleaner;
import io.canopy.namenode.leader.LeaderDuties;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.leases.BlockRecoveryDispatcher;
import io.canopy.namenode.leases.LeaseMonitor;
import io.canopy.namenode.membership.ElectionSettings;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.metrics.ClusterStatusMonitor;
import io.canopy.namenode.metrics.NamenodeMetrics;
import io.canopy.namenode.ops.OwnSubtreeLockCleaner;
import io.canopy.namenode.ops.ReadSmallBlockOp;
import io.canopy.namenode.ops.SafeModeOp;
import io.canopy.namenode.ops.SubtreeOperations;
import io.canopy.namenode.replication.DeadDatanodeMonitor;
import io.canopy.namenode.replication.PendingTransfers;
import io.canopy.namenode.replication.PlacementScan;
import io.canopy.namenode.replication.RecentDeletions;
import io.canopy.namenode.replication.ReplicationMonitor;
import io.canopy.namenode.replication.ReplicationServices;
import io.canopy.namenode.replication.ReplicationSettings;
import io.canopy.namenode.replication.TransferCommandSource;
import io.canopy.namenode.rpc.CanopyClientProtocolServer;
import io.canopy.namenode.rpc.ClientProtocolServer;
import io.canopy.namenode.rpc.ClusterAdminCalls;
import io.canopy.namenode.rpc.NamenodeProtocolServer;
import io.canopy.namenode.rpc.RpcServerFactory;
import io.canopy.namenode.rpc.RpcServers;
import io.canopy.namenode.safemode.EnterStartupSafeModeOp;
import io.canopy.namenode.safemode.SafeModeState;
import io.canopy.namenode.safemode.StartupSafeModeMonitor;
import io.canopy.namenode.smallfiles.DatabaseSmallBlocks;
import io.canopy.namenode.smallfiles.SmallBlockCache;
import io.canopy.namenode.smallfiles.SmallBlockReadServer;
import io.canopy.namenode.smallfiles.SmallFilesDatanode;
import io.canopy.namenode.topology.ClientLocations;
import io.canopy.namenode.topology.ReaderOrder;
import io.canopy.namenode.topology.TopologyResolver;
import io.canopy.namenode.tx.InodeHintCache;
import io.canopy.namenode.tx.MetricsFile;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stateless namenode: every request becomes a transaction on the metadata store; what it keeps in memory (inode
 * hints, the datanode view, id ranges) is a cache or a reservation, never the only copy of anything.
 */
public final class NameNode implements AutoCloseable {
  /** The namespace has not been formatted: nothing to serve. */
  public static final class NotFormattedException extends IOException {
    NotFormattedException(String store) {
      super("The metadata store " + store + " holds no namespace: format it first (canopy format)");
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(NameNode.class);
  /** Election rounds a starting namenode tries to join the group in before it gives up. */
  private static final int JOIN_ATTEMPTS = 10;
  /**
   * Election rounds, past the missed rounds that make a namenode dead, during which the namenodes' views of the group
   * may still differ: a datanode's old applier keeps applying that long, and its new one replays that far back.
   */
  private static final int HANDOVER_EXTRA_ROUNDS = 3;
  /**
   * Heartbeat intervals after which a datanode's heartbeat row, stored by its applier alone, says the applier does
   * not hear it (the row is stored every interval, and each namenode's view of it reloaded every interval).
   */
  private static final int STALE_HEARTBEATS = 4;
  /** Heartbeat intervals a replay reaches back past a stale row's age: the time to see it and take over. */
  private static final int HANDOVER_EXTRA_HEARTBEATS = 3;

  private final MetadataStore store;
  private final RpcServers servers;
  /** Serves database-resident blocks to stock clients over the data transfer protocol (design 016). */
  private final SmallBlockReadServer smallFileReads;
  /** Status page, WebHDFS and Hadoop's servlets; null when {@link NameNodeConfig#HTTP_ADDRESS} is empty. */
  private final NamenodeHttpServer http;
  /** The metrics2 sources, unregistered at close. */
  private final NamenodeMetrics metrics;
  private final TransactionRunner runner;

  private final ScheduledExecutorService housekeeping;
  private final LeaderElection election;
  private final ScheduledExecutorService electionThread;
  private final LeaderDuties duties;
  private final ReplicaReportProcessor replicaReports;
  private final NamespaceServices services;
  private final SubtreeOperations subtreeOperations;
  private final ReportCounters reportCounters;
  private final ClientLocations clientLocations;

  private NameNode(MetadataStore store, RpcServers servers, SmallBlockReadServer smallFileReads,
      NamenodeHttpServer http, NamenodeMetrics metrics, TransactionRunner runner,
      ScheduledExecutorService housekeeping, LeaderElection election, ScheduledExecutorService electionThread,
      LeaderDuties duties, ReplicaReportProcessor replicaReports, NamespaceServices services,
      SubtreeOperations subtreeOperations, ReportCounters reportCounters, ClientLocations clientLocations) {
    this.reportCounters = reportCounters;
    this.clientLocations = clientLocations;
    this.store = store;
    this.servers = servers;
    this.smallFileReads = smallFileReads;
    this.http = http;
    this.metrics = metrics;
    this.runner = runner;
    this.housekeeping = housekeeping;
    this.election = election;
    this.electionThread = electionThread;
    this.duties = duties;
    this.replicaReports = replicaReports;
    this.services = services;
    this.subtreeOperations = subtreeOperations;
  }

  /**
   * Opens the store named by {@code conf}, then serves clients on {@code canopy.namenode.rpc-address} and datanodes
   * on {@code canopy.namenode.servicerpc-address}. Refuses security settings Canopy does not honour.
   */
  public static NameNode start(Configuration conf) throws IOException {
    SecuritySettings.checkSupported(conf, "the namenode");
    MetadataStore store = MetadataStoreProvider.open(
        NameNodeConfig.metadataEngine(conf), NameNodeConfig.namenodeMetadataSettings(conf));
    try {
      return start(conf, store);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Serves on an already opened store, which this namenode then owns and closes. */
  public static NameNode start(Configuration conf, MetadataStore realStore) throws IOException {
    SecuritySettings.checkSupported(conf, "the namenode"); // again: callers may come here directly
    // a test harness's injected faults (off unless canopy.namenode.fault-control.file is set: design 023)
    FaultControl faults = FaultControl.from(conf, NameNodeConfig.rpcAddress(conf).getPort());
    MetadataStore store = faults == null ? realStore : faults.wrap(realStore);
    LongSupplier clock = faults == null ? System::currentTimeMillis : faults::wallClockMs;
    NamespaceIdentity identity = store.identity();
    if (identity == null) {
      throw new NotFormattedException(store.describe());
    }
    // with Kerberos the process is the namenode's principal before anything reads who it runs as (the superuser)
    KerberosLogin.asNamenode(conf, NameNodeConfig.rpcAddress(conf));
    long seed = NameNodeConfig.randomSeed(conf);
    Random random = new Random(seed);
    IdGenerator ids = new IdGenerator(store, NameNodeConfig.idBatchSize(conf));
    NamespaceServices services = new NamespaceServices(conf, ids, clock, identity);
    TransactionRunner runner = new TransactionRunner(store,
        new InodeHintCache(NameNodeConfig.hintCacheSize(conf)), NameNodeConfig.transactionMaxAttempts(conf),
        new Random(random.nextLong()), Thread::sleep, clock,
        NameNodeConfig.retryCacheExpiryMs(conf),
        NameNodeConfig.subtreeMaxRows(conf, Runtime.getRuntime().maxMemory()));
    DatanodeRegistry registry = new DatanodeRegistry(store, conf, clock);
    reloadAtStart(registry);
    ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "canopy-datanode-view");
      thread.setDaemon(true);
      return thread;
    });
    registry.refreshIn(housekeeping);
    if (faults != null) {
      faults.pollIn(housekeeping);
    }
    // Serve in the cluster's safe mode from the first call on, then follow changes made through other namenodes.
    refreshSafeMode(runner, services.safeMode());
    long safeModeRefreshMs = NameNodeConfig.safeModeRefreshMs(conf);
    housekeeping.scheduleWithFixedDelay(() -> refreshSafeMode(runner, services.safeMode()), safeModeRefreshMs,
        safeModeRefreshMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    long purgeInterval = NameNodeConfig.retryCachePurgeIntervalMs(conf);
    housekeeping.scheduleWithFixedDelay(() -> purgeRetryCache(store, clock), purgeInterval, purgeInterval,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    BlockTokens blockTokens = startBlockTokens(conf, store, identity.blockPoolId(), new Random(random.nextLong()),
        housekeeping, clock);
    String metricsFile = NameNodeConfig.metricsFile(conf);
    TopologyResolver topology = TopologyResolver.fromConf(conf);
    BlockServices blocks = new BlockServices(registry,
        new BlockPlacement(registry, topology, new Random(random.nextLong())),
        new BlockLocator(registry, identity.blockPoolId()), new ReplicaArrivals(),
        new ReaderOrder(topology, new Random(random.nextLong())),
        new ClientLocations(ClientLocations.DEFAULT_LIMIT, clock));
    AtomicReference<InetSocketAddress> boundAddress = new AtomicReference<>();
    AtomicReference<String> boundHttpAddress = new AtomicReference<>("");
    LeaderElection election = new LeaderElection(store, NameNodeConfig.electionSettings(conf),
        () -> boundAddress.get().getAddress().getHostAddress() + ":" + boundAddress.get().getPort(),
        boundHttpAddress::get, NameNodeConfig.locationDomainId(conf), System::nanoTime,
        clock);
    // an operation meeting a subtree operation's flag waits for it, or ignores it once its namenode is dead (design 017)
    LongPredicate namenodeAlive = election::mayBeAlive;
    runner.watchSubtreeLocks(namenodeAlive, NameNodeConfig.subtreeSettings(conf).waitMs());
    SubtreeOperations subtreeOperations = new SubtreeOperations(NameNodeConfig.subtreeSettings(conf));
    long subtreeCleanupMs = NameNodeConfig.subtreeCleanupIntervalMs(conf);
    housekeeping.scheduleWithFixedDelay(new OwnSubtreeLockCleaner(runner, subtreeOperations, election::selfId,
        clock, subtreeCleanupMs), subtreeCleanupMs, subtreeCleanupMs,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    List<DatanodeCommandSource> commandSources = new ArrayList<>();
    List<LeaderWork> leaderWork = new ArrayList<>();
    Random datanodeRandom = new Random(random.nextLong());
    BlockRecoveryDispatcher recoveries = new BlockRecoveryDispatcher(registry, identity.blockPoolId(),
        NameNodeConfig.leaseRecoveryTimeoutMs(conf), clock);
    commandSources.add(recoveries);
    leaderWork.add(new LeaseMonitor(services, runner, recoveries, services.leaseLimits(),
        LeaseMonitor.intervalMs(conf), clock));
    FullReportTracker fullReports = new FullReportTracker(clock,
        NameNodeConfig.fullReportAskAgainMs(conf));
    ReplicationServices replication = replicationServices(conf, registry, topology, fullReports,
        new Random(random.nextLong()), clock);
    commandSources.add(new TransferCommandSource(replication, identity.blockPoolId()));
    leaderWork.add(new DeadDatanodeMonitor(runner, replication));
    leaderWork.add(new DeadSubtreeLockCleaner(runner, namenodeAlive, subtreeCleanupMs));
    leaderWork.add(new BucketChangeFolder(runner, NameNodeConfig.bucketFoldIntervalMs(conf)));
    leaderWork.add(new ReplicationMonitor(runner, replication));
    leaderWork.add(new PlacementScan(runner, replication, NameNodeConfig.placementScanReplicasPerRun(conf)));
    leaderWork.add(new StartupSafeModeMonitor(runner, store.blockCensus(), services.safeMode(), fullReports, registry,
        clock));
    UnknownReplicas unknownReplicas = new UnknownReplicas(runner, () -> election.leaderTerm().orElse(0),
        services.safeMode(), fullReports, registry, clock,
        replication.settings().monitorIntervalMs());
    leaderWork.add(unknownReplicas);
    ReplicaReportProcessor replicaReports = new ReplicaReportProcessor(runner, services.limits().minReplication(),
        services::now, unknownReplicas, registry, blocks.arrivals(),
        NameNodeConfig.replicaReportThreads(conf));
    // a datanode's reports are applied by one namenode; the others keep them for a handover period of a few rounds
    ElectionSettings electionSettings = NameNodeConfig.electionSettings(conf);
    long heartbeatMs = NameNodeConfig.heartbeatIntervalMs(conf);
    long staleHeartbeatMs = STALE_HEARTBEATS * heartbeatMs;
    ReportAppliers appliers = new ReportAppliers(election, services::now,
        () -> Math.max((electionSettings.missedRounds() + HANDOVER_EXTRA_ROUNDS) * election.roundMs(),
            staleHeartbeatMs + HANDOVER_EXTRA_HEARTBEATS * heartbeatMs), staleHeartbeatMs);
    DatanodeProtocolServer datanodes = new DatanodeProtocolServer(services, runner, registry, replicaReports,
        fullReports, datanodeRandom, election, commandSources, appliers, blocks.arrivals(),
        blocks.readers().topology(), FullReportLeases.of(conf, clock,
            new Random(random.nextLong())), blockTokens);
    ClusterAdminCalls adminCalls = new ClusterAdminCalls(runner, blocks, services, replicaReports,
        blockTokens.enabled());
    // every namespace operation a client asks for, over RPC or WebHDFS, goes to HDFS's audit log
    SharedDelegationTokens delegationTokens = delegationTokens(conf, store);
    DelegationTokenCalls tokenCalls = delegationTokens != null ? DelegationTokenCalls.of(delegationTokens)
        : DelegationTokenCalls.none(KerberosLogin.kerberos(conf) ? store.describe()
            + " keeps no delegation tokens (a PostgreSQL store does)" : null);
    ClientProtocolServer namespaceCalls = new ClientProtocolServer(conf, services, blocks, runner, adminCalls,
        subtreeOperations, election::selfId, tokenCalls);
    AuditLog audit = AuditLog.toLogger();
    ClientProtocol clientProtocol = AuditedClientProtocol.wrap(BlockTokenSigning.wrap(namespaceCalls, blockTokens),
        audit);
    ClusterStatusMonitor status = new ClusterStatusMonitor(identity.clusterId(), identity.blockPoolId(), election,
        registry, services.safeMode(), runner.metrics(), store.capability(NamespaceCensus.class),
        adminCalls::getReplicatedBlockStats, clock, NameNodeConfig.censusIntervalMs(conf));
    RpcServers servers = RpcServerFactory.build(conf, NameNodeConfig.rpcAddress(conf),
        NameNodeConfig.serviceRpcAddress(conf), clientProtocol,
        new CanopyClientProtocolServer(services, blocks, runner, blockTokens), datanodes,
        new NamenodeProtocolServer(datanodes, services, blockTokens, runner, registry,
            new Random(random.nextLong())), election, delegationTokens);
    if (metricsFile != null && !metricsFile.isBlank()) {
      java.nio.file.Path file = java.nio.file.Path.of(metricsFile);
      housekeeping.scheduleWithFixedDelay(() -> {
        try {
          MetricsFile.write(file, runner.metrics());
        } catch (IOException | RuntimeException e) {
          LOG.warn("Cannot write the metrics file {}: {}", file, e.getMessage());
        }
      }, 1, 1, java.util.concurrent.TimeUnit.SECONDS);
    }
    boundAddress.set(servers.clientAddress());
    SmallBlockReadServer smallFileReads;
    NamenodeHttpServer http;
    try {
      smallFileReads = startSmallFileReads(conf, servers.clientAddress(), runner, blocks, blockTokens,
          identity.blockPoolId());
    } catch (IOException | RuntimeException e) {
      housekeeping.shutdownNow();
      servers.stop();
      replicaReports.close();
      throw e;
    }
    try {
      http = startHttp(conf, clientProtocol, namespaceCalls, audit, blocks, servers.clientAddress(),
          new Random(random.nextLong()), status, new HttpCallers(conf, tokenCalls));
    } catch (IOException | RuntimeException e) {
      housekeeping.shutdownNow();
      servers.stop();
      smallFileReads.close();
      replicaReports.close();
      throw e;
    }
    if (http != null) {
      boundHttpAddress.set(http.address().getAddress().getHostAddress() + ":" + http.address().getPort());
    }
    // Join the group before serving, so this namenode is listed (and may lead) from its first answer on, and knows
    // whether it starts the cluster (then the startup safe mode comes first).
    try {
      joinGroup(election);
      if (election.joinedAlone()) {
        enterStartupSafeMode(store, runner, services.safeMode(), registry);
      }
    } catch (IOException | RuntimeException e) {
      housekeeping.shutdownNow();
      servers.stop();
      smallFileReads.close();
      closeQuietly(http);
      replicaReports.close();
      throw e;
    }
    ScheduledExecutorService electionThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "canopy-leader-election");
      thread.setDaemon(true);
      return thread;
    });
    scheduleElectionRound(electionThread, election);
    LeaderDuties duties = new LeaderDuties(election, services.safeMode(), leaderWork);
    NamenodeMetrics metrics = null;
    try {
      metrics = NamenodeMetrics.start(status, NameNodeConfig.statusIntervalMs(conf));
      servers.start();
    } catch (RuntimeException e) {
      duties.close();
      electionThread.shutdownNow();
      if (metrics != null) {
        metrics.close();
      }
      servers.stop();
      closeQuietly(http);
      smallFileReads.close();
      replicaReports.close();
      housekeeping.shutdownNow();
      throw e;
    }
    if (http != null) {
      http.startServing(); // WebHDFS and fsck wait for the group and the RPC servers, as the RPC clients do
    }
    LOG.info("Namenode serving namespace {} (cluster {}, block pool {}) to clients on {} and to datanodes on {} "
        + "with metadata in {}, seed {}; HTTP {}", identity.namespaceId(), identity.clusterId(),
        identity.blockPoolId(), servers.clientAddress(), servers.serviceAddress(), store.describe(), seed,
        http == null ? "off (" + NameNodeConfig.HTTP_ADDRESS + " is empty)" : "on http://" + boundHttpAddress.get());
    LOG.info("Namenode {} joined the group; leader: {}", election.selfId(), election.leaderId());
    return new NameNode(store, servers, smallFileReads, http, metrics, runner, housekeeping, election,
        electionThread, duties, replicaReports, services, subtreeOperations, datanodes.counters(), blocks.clients());
  }

  /**
   * Block access tokens when {@code dfs.block.access.token.enable} asks for them (keys shared through the store,
   * reloaded and rotated every {@link NameNodeConfig#BLOCK_KEYS_REFRESH_MS}); off otherwise. Refused on an engine
   * that keeps no keys.
   */
  private static BlockTokens startBlockTokens(Configuration conf, MetadataStore store, String blockPoolId,
      Random random, ScheduledExecutorService housekeeping, LongSupplier clock) throws IOException {
    if (!BlockTokens.enabledIn(conf)) {
      return BlockTokens.disabled();
    }
    BlockKeys keys = store.capability(BlockKeys.class).orElseThrow(() -> new IOException(
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY + "=true needs a metadata engine that keeps block keys, "
            + "such as postgres; " + store.describe() + " does not"));
    BlockTokens tokens = BlockTokens.start(conf, keys, blockPoolId, clock, random);
    long refreshMs = NameNodeConfig.blockKeysRefreshMs(conf);
    housekeeping.scheduleWithFixedDelay(() -> {
      try {
        tokens.refresh();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot refresh the block keys (the current ones stay in use): {}", e.toString());
      }
    }, refreshMs, refreshMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    return tokens;
  }

  /**
   * With Kerberos, delegation tokens shared through the store (design 023); their threads start and stop with the RPC
   * servers. Null without Kerberos or on an engine that keeps none (getDelegationToken then says so).
   */
  private static SharedDelegationTokens delegationTokens(Configuration conf, MetadataStore store) {
    if (!KerberosLogin.kerberos(conf)) {
      return null;
    }
    java.util.Optional<DelegationTokenStore> tokenStore = store.capability(DelegationTokenStore.class);
    if (tokenStore.isEmpty()) {
      LOG.warn("{} keeps no delegation tokens: clients authenticate with Kerberos only", store.describe());
      return null;
    }
    return new SharedDelegationTokens(conf, tokenStore.get());
  }

  /** The HTTP server (status page, WebHDFS, /jmx) on {@link NameNodeConfig#HTTP_ADDRESS}; null when none is set. */
  private static NamenodeHttpServer startHttp(Configuration conf, ClientProtocol clientProtocol,
      ClientProtocol namespaceCalls, AuditLog audit, BlockServices blocks, InetSocketAddress clientAddress,
      Random random, ClusterStatusMonitor status, HttpCallers callers) throws IOException {
    InetSocketAddress address = NameNodeConfig.httpAddress(conf);
    if (address == null) {
      return null;
    }
    Supplier<List<String>> liveLocations = () -> blocks.registry().cachedLive().stream()
        .map(node -> node.record().networkLocation()).toList();
    // fsck walks the namespace through the namenode's calls without their audit lines: it writes one fsck line
    return NamenodeHttpServer.start(conf, address, new WebHdfs(clientProtocol, conf, callers, blocks,
        () -> clientAddress, random), status, liveLocations, new FsckServlet.Context(namespaceCalls, conf, callers,
            liveLocations, () -> false, audit));
  }

  private static void closeQuietly(NamenodeHttpServer http) {
    if (http == null) {
      return;
    }
    try {
      http.close();
    } catch (RuntimeException e) {
      LOG.warn("Cannot stop the HTTP server: {}", e.getMessage());
    }
  }

  /**
   * Starts the endpoint that serves database-resident blocks to stock clients (design 016) on the client port's host,
   * and has located blocks name it. It runs whatever the threshold: files stored before it was lowered stay readable.
   */
  private static SmallBlockReadServer startSmallFileReads(Configuration conf, InetSocketAddress clientAddress,
      TransactionRunner runner, BlockServices blocks, BlockTokens blockTokens, String blockPoolId) throws IOException {
    SmallBlockCache cache = new SmallBlockCache(SmallFilesConfig.readCacheBytes(conf),
        Duration.ofMillis(SmallFilesConfig.READ_CACHE_TTL_MS), Ticker.systemTicker());
    SmallBlockReadServer server = SmallBlockReadServer.start(clientAddress.getAddress().getHostAddress(),
        new DatabaseSmallBlocks(blockId -> runner.run(new ReadSmallBlockOp(blockId)), cache),
        SmallFilesConfig.readSettings(conf), blockTokens::checkRead,
        DataTransferProtection.streams(conf, blockTokens.secretManager(), blockPoolId));
    try {
      InetSocketAddress bound = server.address();
      InetAddress advertised = bound.getAddress().isAnyLocalAddress() ? InetAddress.getLocalHost()
          : bound.getAddress();
      blocks.locator().serveSmallFilesFrom(SmallFilesDatanode.at(new InetSocketAddress(advertised,
          bound.getPort())), cache);
      return server;
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The leader's block housekeeping state: empty until this namenode leads, forgotten when a new term starts. */
  private static ReplicationServices replicationServices(Configuration conf, DatanodeRegistry registry,
      TopologyResolver topology, FullReportTracker fullReports, Random random, LongSupplier clock) {
    ReplicationSettings settings = NameNodeConfig.replicationSettings(conf);
    return new ReplicationServices(registry, new BlockPlacement(registry, topology, random),
        new PendingTransfers(clock, settings.pendingTimeoutMs()),
        new RecentDeletions(clock, settings.deletionGraceMs(), ReplicationSettings.RECENT_DELETIONS_LIMIT),
        fullReports, settings, clock);
  }

  /**
   * A namenode that starts a cluster (no other namenode ran recently) turns the startup safe mode on: the datanode
   * view in the database is as old as the last shutdown, so nothing changes and no replica is copied or deleted until
   * datanodes have reported enough blocks. A namespace whose thresholds are met at once does not enter it.
   */
  private static void enterStartupSafeMode(MetadataStore store, TransactionRunner runner, SafeMode safeMode,
      DatanodeRegistry registry) throws IOException {
    long total = store.blockCensus().completeBlocks();
    int registered = 0;
    for (DatanodeRegistry.Node node : registry.all()) {
      registered += node.record().isDeclaredDead() ? 0 : 1;
    }
    SafeModeState state = runner.run(new EnterStartupSafeModeOp(safeMode.settings(), total, registered));
    safeMode.changed(state);
    if (state.startup()) {
      LOG.info("STATE* Safe mode ON: this namenode starts the cluster; {}", safeMode.tip());
    }
  }

  /**
   * Runs election rounds until this namenode has joined the group, a round time apart, at most {@link
   * #JOIN_ATTEMPTS} times: a namenode that cannot reach the database does not serve (and could not tell whether it
   * starts the cluster).
   */
  private static void joinGroup(LeaderElection election) throws IOException {
    for (int attempt = 1; ; attempt++) {
      election.runRound();
      if (election.selfId() != 0) {
        return;
      }
      if (attempt >= JOIN_ATTEMPTS) {
        throw new IOException("Namenode could not join the namenode group in " + JOIN_ATTEMPTS + " election rounds: "
            + "is the metadata database reachable? (see the warnings above)");
      }
      try {
        Thread.sleep(election.roundMs());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while joining the namenode group", e);
      }
    }
  }

  /**
   * The next round a round time after this one ended (the round time may change between rounds), or sooner after a
   * round lost to a lock conflict ({@link LeaderElection#nextRoundDelayMs}).
   */
  private static void scheduleElectionRound(ScheduledExecutorService thread, LeaderElection election) {
    thread.schedule(() -> {
      election.runRound();
      scheduleElectionRound(thread, election);
    }, election.nextRoundDelayMs(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** Re-reads the cluster-wide safe mode; a failure keeps the last known state (the next refresh retries). */
  private static void refreshSafeMode(TransactionRunner runner, SafeMode safeMode) {
    long mark = safeMode.refreshStarted();
    try {
      boolean wasOn = safeMode.isOn();
      SafeModeState stored = runner.run(new SafeModeOp(HdfsConstants.SafeModeAction.SAFEMODE_GET));
      safeMode.refreshed(stored, mark);
      if (safeMode.isOn() != wasOn) {
        LOG.info("STATE* Safe mode is {} (stored state read by this namenode's refresh): {}",
            safeMode.isOn() ? "ON" : "OFF", safeMode.isOn() ? safeMode.tip() : stored);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot read the safe mode state; keeping {}: {}", safeMode.isOn() ? "on" : "off", e.getMessage());
    }
  }

  /**
   * Deletes expired retry-cache entries (every namenode does; deleting what another deleted is harmless), batch
   * after batch while batches come back full, up to {@link NameNodeConfig#RETRY_CACHE_PURGE_MAX_BATCHES} per round.
   */
  private static void purgeRetryCache(MetadataStore store, LongSupplier clock) {
    try {
      long now = clock.getAsLong();
      int purged = 0;
      for (int round = 0; round < NameNodeConfig.RETRY_CACHE_PURGE_MAX_BATCHES; round++) {
        int deleted = store.purgeExpiredRetryEntries(now, NameNodeConfig.RETRY_CACHE_PURGE_BATCH);
        purged += deleted;
        if (deleted < NameNodeConfig.RETRY_CACHE_PURGE_BATCH) {
          break;
        }
      }
      if (purged > 0) {
        LOG.debug("Purged {} expired retry-cache entries", purged);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot purge expired retry-cache entries: {}", e.getMessage());
    }
  }

  /** Where clients call this namenode (ClientProtocol). */
  public InetSocketAddress address() {
    return servers.clientAddress();
  }

  /** Where stock clients read database-resident blocks from this namenode (design 016). */
  public InetSocketAddress smallFileReadAddress() {
    return smallFileReads.address();
  }

  /** Where this namenode serves HTTP (status page, WebHDFS, /jmx), or null when it serves none. */
  public InetSocketAddress httpAddress() {
    return http == null ? null : http.address();
  }

  /** Where datanodes call this namenode (DatanodeProtocol): its service RPC server. */
  public InetSocketAddress serviceAddress() {
    return servers.serviceAddress();
  }

  /** {@code hdfs://host:port} of this namenode, for clients. */
  public String uri() {
    return "hdfs://" + address().getAddress().getHostAddress() + ":" + address().getPort();
  }

  public TransactionRunner runner() {
    return runner;
  }

  public LeaderElection election() {
    return election;
  }

  /** What this namenode did with the datanodes' incremental reports and heartbeats (design 018). */
  public ReportCounters reportCounters() {
    return reportCounters;
  }

  /** How this namenode applies datanodes' replica reports (tests replay reports through it). */
  public ReplicaReportProcessor replicaReports() {
    return replicaReports;
  }

  /** The network locations clients declared to this namenode (design 019). */
  public ClientLocations clientLocations() {
    return clientLocations;
  }

  /** This namenode's copy of the cluster-wide safe mode. */
  public SafeMode safeMode() {
    return services.safeMode();
  }

  public void join() throws InterruptedException {
    servers.join();
  }

  /**
   * Stops this namenode the way a crash (SIGKILL) would, for tests: no goodbye to the group (its descriptor stays
   * until the leader evicts it), no finishing of anything in flight.
   */
  public void crash() {
    duties.close();
    electionThread.shutdownNow();
    servers.stop();
    closeQuietly(http);
    metrics.close();
    smallFileReads.close();
    replicaReports.close();
    subtreeOperations.abort();
    housekeeping.shutdownNow();
    store.close();
  }

  /**
   * Stops serving (no new calls), waits a bounded time for the subtree operations' transactions still running (design
   * 017), then leaves the group, so the others need not wait for this namenode's eviction.
   */
  @Override
  public void close() {
    duties.close();
    electionThread.shutdownNow();
    servers.stop();
    closeQuietly(http); // WebHDFS changes the namespace too: it stops with the RPC servers
    subtreeOperations.close();
    election.leave();
    metrics.close();
    smallFileReads.close();
    replicaReports.close();
    housekeeping.shutdownNow();
    store.close();
  }

  /** How long a starting namenode retries its first read while the database answers with transient errors. */
  static final long START_RETRY_MS = 60_000;

  /**
   * The datanode view's first load, retried while the database's errors are transient (a distributed engine whose
   * nodes just started may still be electing its partitions' primaries: design 020), for at most
   * {@link #START_RETRY_MS}.
   */
  private static void reloadAtStart(DatanodeRegistry registry) throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(START_RETRY_MS);
    while (true) {
      try {
        registry.reload();
        return;
      } catch (io.canopy.metadata.TransientStoreException e) {
        if (System.nanoTime() - deadline > 0) {
          throw e;
        }
        LOG.info("the metadata database is not ready yet ({}); retrying", e.getMessage());
        try {
          Thread.sleep(1000);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for the metadata database");
        }
      }
    }
  }
}
