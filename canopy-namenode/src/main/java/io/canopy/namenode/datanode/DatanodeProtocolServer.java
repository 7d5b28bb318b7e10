package io.canopy.namenode.datanode;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.namenode.blocks.BlockTokens;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.blocks.ReplicaArrivals;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.leader.DatanodeCommandSource;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.membership.NotLeaderException;
import io.canopy.namenode.ops.BlockOwnerOp;
import io.canopy.namenode.ops.CommitBlockSynchronizationOp;
import io.canopy.namenode.topology.NetworkLocation;
import io.canopy.namenode.topology.TopologyResolver;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.KeyUpdateCommand;
import org.apache.hadoop.hdfs.server.protocol.NNHAStatusHeartbeat;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.RegisterCommand;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.ipc.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode side of Apache DataNodes' {@link DatanodeProtocol}: registration, heartbeats (carrying replica
 * deletions back, and the leader's commands), full and incremental block reports, and the results of block
 * recoveries (commitBlockSynchronization). Everything a datanode tells is stored in the database, so
 * any namenode sees it. Datanodes talk to every namenode; only the leader answers heartbeats as ACTIVE (with its
 * term as the transaction id the datanode compares) and hands out commands.
 *
 * <p>Each datanode's incremental reports are applied by one namenode, its applier ({@link ReportAppliers}, design
 * 018); the others keep them for a handover ({@link ReportBuffer}), wake their own complete() waiters by block id,
 * and answer with no database work. A datanode's heartbeat figures are stored by its applier alone; the leader reads
 * its row to hand out deletions and commands. A full report is applied by the datanode's applier and by the leader,
 * which keeps the full reports of its term in memory ({@link FullReportTracker}); the others answer it at once.
 */
public final class DatanodeProtocolServer implements DatanodeProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeProtocolServer.class);
  /** Replica deletions sent per heartbeat (HDFS's dfs.block.invalidate.limit default). */
  private static final int MAX_DELETIONS_PER_HEARTBEAT = 1000;

  private final NamespaceServices services;
  private final TransactionRunner runner;
  private final DatanodeRegistry registry;
  private final ReplicaReportProcessor reports;
  private final FullReportTracker fullReports;
  private final FullReportLeases leases;
  private final Random random;
  private final LeaderElection election;
  private final List<DatanodeCommandSource> commandSources;
  private final RegistrationCheck registrations;
  private final ReportAppliers appliers;
  /** Block access tokens' keys (off unless configured): given at registration, and in a heartbeat when they change. */
  private final BlockTokens blockTokens;
  /**
   * Per datanode, the version of the keys it was last sent ({@link BlockTokens#version}) and in how many heartbeat
   * answers: a new version goes out in {@link #KEY_UPDATE_SENDS} answers, since an answer may be lost on its way.
   */
  private final java.util.concurrent.ConcurrentHashMap<String, long[]> keysGiven =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int KEY_UPDATE_SENDS = 3;
  private final ReportBuffer buffer = new ReportBuffer();
  private final ReplicaArrivals arrivals;
  /** Places a registering datanode (its network location, design 019). */
  private final TopologyResolver topology;
  /** Datanodes whose replay found reports missing: their next heartbeat here asks for a full report. */
  private final Set<String> fullReportWanted = ConcurrentHashMap.newKeySet();
  private final ReportCounters counters = new ReportCounters();

  public DatanodeProtocolServer(NamespaceServices services, TransactionRunner runner, DatanodeRegistry registry,
      ReplicaReportProcessor reports, FullReportTracker fullReports, Random random, LeaderElection election,
      List<DatanodeCommandSource> commandSources, ReportAppliers appliers, ReplicaArrivals arrivals,
      TopologyResolver topology, FullReportLeases leases, BlockTokens blockTokens) {
    this.blockTokens = blockTokens;
    this.leases = leases;
    this.topology = topology;
    this.appliers = appliers;
    this.arrivals = arrivals;
    this.election = election;
    this.commandSources = List.copyOf(commandSources);
    this.services = services;
    this.runner = runner;
    this.registry = registry;
    this.reports = reports;
    this.fullReports = fullReports;
    this.random = random;
    this.registrations = new RegistrationCheck(services.identity(), registry, runner);
  }

  @Override
  public NamespaceInfo versionRequest() {
    return new NamespaceInfo(services.identity().namespaceId(), services.identity().clusterId(),
        services.blockPoolId(), services.identity().creationTime(),
        election.claimedTerm() > 0 ? HAServiceState.ACTIVE : HAServiceState.STANDBY);
  }

  @Override
  public DatanodeRegistration registerDatanode(DatanodeRegistration registration) throws IOException {
    registrations.checkRegistering(registration);
    String remoteIp = Server.getRemoteAddress();
    if (remoteIp != null) {
      registration.setIpAddr(remoteIp); // what clients must connect to, as HDFS does
    }
    long now = services.now();
    DatanodeRecord record = new DatanodeRecord(registration.getDatanodeUuid(), registration.getHostName(),
        registration.getIpAddr(), registration.getXferPort(), registration.getInfoPort(),
        registration.getInfoSecurePort(), registration.getIpcPort(),
        topology.resolve(registration.getIpAddr(), registration.getHostName()),
        registration.getSoftwareVersion(), now, 0, 0, 0, 0, 0, 0, now);
    runner.run(new RegisterDatanodeOp(record));
    // registering keeps the storages recorded: so does this namenode's view (with none, its block placement would
    // find no usable datanode until the next heartbeat, e.g. while a new leader has every datanode register again)
    DatanodeRegistry.Node known = registry.cachedNode(record.uuid());
    registry.updated(record, known == null ? List.of() : known.storages());
    fullReports.registered(election.claimedTerm(), record.uuid()); // its first full report follows
    if (blockTokens.enabled()) {
      long version = blockTokens.version();
      registration.setExportedKeys(blockTokens.exported());
      keysGiven.put(record.uuid(), new long[] {version, KEY_UPDATE_SENDS - 1}); // and again in the next heartbeat
    }
    LOG.info("Registered datanode {} at {}:{} ({}, {})", record.uuid(), record.ipAddress(), record.transferPort(),
        record.hostName(), record.networkLocation());
    warnOnMixedTopology(record);
    return registration;
  }

  /**
   * HDFS refuses a datanode whose location has another depth than the others' ({@code /rack} among {@code /az/rack}):
   * Canopy takes it (refusing would keep it out until every namenode's view changed) but says so, because the zone
   * rules then never count it as a zone (design 019).
   */
  private void warnOnMixedTopology(DatanodeRecord registered) {
    boolean zoned = NetworkLocation.parseOrUnknown(registered.networkLocation()).hasZone();
    List<DatanodeRegistry.Node> live;
    try {
      live = registry.live();
    } catch (StoreException e) { // the registration committed: a warning is not worth failing it
      LOG.debug("No datanode view to compare {}'s location with: {}", registered.uuid(), e.toString());
      return;
    }
    for (DatanodeRegistry.Node other : live) {
      if (other.location().hasZone() != zoned) {
        LOG.warn("Datanode {} ({} {}) is at {}, but datanode {} ({}) is at {}: locations of the form /zone/rack and "
            + "/rack are mixed; check the topology mapping (net.topology.*) of every namenode",
            registered.uuid(), registered.hostName(), registered.ipAddress(), registered.networkLocation(),
            other.record().uuid(), other.record().hostName(), other.record().networkLocation());
        return;
      }
    }
  }

  @Override
  public HeartbeatResponse sendHeartbeat(DatanodeRegistration registration, StorageReport[] storageReports,
      long cacheCapacity, long cacheUsed, int xmitsInProgress, int xceiverCount, int failedVolumes,
      VolumeFailureSummary volumeFailureSummary, boolean requestFullBlockReportLease, SlowPeerReports slowPeers,
      SlowDiskReports slowDisks) throws IOException {
    registrations.checkHeartbeat(registration, storageReports);
    // Datanodes obey the namenode that says ACTIVE with the highest "transaction id": the leader term. Commands
    // need a valid lease, and the term still current in the database (the heartbeat transaction is fenced).
    long claimed = election.claimedTerm();
    long term = election.leaderTerm().orElse(0);
    // In safe mode the leader hands out no deletions and no commands (HDFS computes no datanode work then).
    boolean safeMode = services.safeMode().isOn();
    // A leader with no full report of this datanode in its term asks for one: registering again makes a stock
    // DataNode send it at once. That answer carries nothing else, so no deletion is taken from the queue for it.
    // One already asking for a lease (its report is due) is not asked again: it sends its report once granted one.
    boolean askForReport = claimed > 0 && !requestFullBlockReportLease
        && fullReports.askForReport(claimed, registration.getDatanodeUuid());
    String uuid = registration.getDatanodeUuid();
    ReportAppliers.Route route = routeAndReplay(uuid);
    NNHAStatusHeartbeat standby = new NNHAStatusHeartbeat(HAServiceState.STANDBY, election.knownTerm());
    // The datanode's applier stores its figures (design 018); another namenode does only for a datanode or storage
    // its view does not have yet. The leader, applier or not, hands out deletions and commands.
    boolean store = route.apply() || !registrations.knownInService(uuid, storageReports);
    if (claimed == 0 && !store) {
      counters.heartbeatsLeft.increment();
      KeyUpdateCommand keys = keyUpdateFor(uuid);
      DatanodeCommand[] commands = fullReportWanted.remove(uuid) ? new DatanodeCommand[] {RegisterCommand.REGISTER}
          : keys != null ? new DatanodeCommand[] {keys} : new DatanodeCommand[0];
      // neither its applier nor the leader: its full report is answered without work, any lease will do
      return new HeartbeatResponse(commands, standby, null,
          requestFullBlockReportLease ? 1 + random.nextInt(Integer.MAX_VALUE) : 0);
    }
    (store ? counters.heartbeatsWritten : counters.heartbeatsLeft).increment();
    HeartbeatOp.Result result;
    try {
      result = runner.run(new HeartbeatOp(uuid, storageReports, xceiverCount, services.now(),
          safeMode || askForReport ? 0 : MAX_DELETIONS_PER_HEARTBEAT, term, store));
    } catch (NotLeaderException e) {
      term = 0;
      claimed = 0;
      result = runner.run(new HeartbeatOp(uuid, storageReports, xceiverCount, services.now(), 0, 0, store));
    }
    NNHAStatusHeartbeat status = claimed > 0 ? new NNHAStatusHeartbeat(HAServiceState.ACTIVE, claimed) : standby;
    if (result == null) {
      return new HeartbeatResponse(new DatanodeCommand[] {RegisterCommand.REGISTER}, status, null, 0);
    }
    if (result.stored()) {
      registry.updated(result.record(), result.storages());
    }
    if (askForReport) {
      LOG.info("Asking datanode {} to register again: leader term {} has no full block report of it yet",
          registration.getDatanodeUuid(), claimed);
      return new HeartbeatResponse(new DatanodeCommand[] {RegisterCommand.REGISTER}, status, null, 0);
    }
    if (fullReportWanted.remove(uuid)) {
      // the replay after a handover missed reports: registering again makes the datanode send a full report here
      return new HeartbeatResponse(new DatanodeCommand[] {RegisterCommand.REGISTER}, status, null, 0);
    }
    List<DatanodeCommand> commands = new ArrayList<>();
    KeyUpdateCommand keys = keyUpdateFor(uuid);
    if (keys != null) {
      commands.add(keys);
    }
    if (!result.deletions().isEmpty()) {
      List<Block> blocks = new ArrayList<>();
      for (InvalidatedBlock deletion : result.deletions()) {
        blocks.add(new Block(deletion.blockId(), deletion.numBytes(), deletion.generationStamp()));
      }
      commands.add(new BlockCommand(DatanodeProtocol.DNA_INVALIDATE, services.blockPoolId(),
          blocks.toArray(new Block[0])));
    }
    if (term > 0 && !safeMode) {
      for (DatanodeCommandSource source : commandSources) {
        source.commandsFor(registration.getDatanodeUuid(), term, commands);
      }
    }
    // A non-zero lease lets the datanode send its full block report: this namenode applies it (it is the
    // datanode's applier or the leader), so it grants a bounded number at a time.
    long reportLease = !requestFullBlockReportLease ? 0
        : route.apply() || claimed > 0 ? leases.grant(uuid) : 1 + random.nextInt(Integer.MAX_VALUE);
    if (requestFullBlockReportLease && reportLease == 0) {
      counters.fullReportLeaseRefused();
    }
    return new HeartbeatResponse(commands.toArray(new DatanodeCommand[0]), status, null, reportLease);
  }

  /** The keys for a datanode not yet sent their latest version in {@link #KEY_UPDATE_SENDS} answers, or null. */
  private KeyUpdateCommand keyUpdateFor(String uuid) {
    if (!blockTokens.enabled()) {
      return null;
    }
    long version = blockTokens.version();
    boolean[] send = {false};
    keysGiven.compute(uuid, (key, before) -> {
      if (before == null || before[0] != version) {
        send[0] = true;
        return new long[] {version, 1};
      }
      if (before[1] < KEY_UPDATE_SENDS) {
        send[0] = true;
        return new long[] {version, before[1] + 1};
      }
      return before;
    });
    return send[0] ? new KeyUpdateCommand(blockTokens.exported()) : null;
  }

  /**
   * Applies a full report (or one call of a report split per storage) when this namenode is the datanode's applier or
   * the leader; answers it at once otherwise. The report's last call, or any failure, ends the lease it came with
   * ({@link FullReportLeases}): a retry is applied whatever lease it names.
   */
  @Override
  public DatanodeCommand blockReport(DatanodeRegistration registration, String poolId,
      StorageBlockReport[] storageReports, BlockReportContext context) throws IOException {
    String uuid = registration.getDatanodeUuid();
    boolean last = context == null || context.getCurRpc() + 1 >= context.getTotalRpcs();
    boolean applied = false;
    try {
      checkPool(poolId);
      long claimed = election.claimedTerm();
      if (claimed == 0 && !routeAndReplay(uuid).apply()) {
        // the datanode's applier applies it, and the leader too (it tracks the full reports of its term); a lease
        // this namenode granted while it applied ends here
        counters.fullReportsLeft.increment();
        return null;
      }
      applyFull(registration, storageReports, claimed, context);
      applied = true;
      return null;
    } finally {
      if ((last || !applied) && context != null) {
        leases.release(uuid, context.getLeaseId());
      }
    }
  }

  private void applyFull(DatanodeRegistration registration, StorageBlockReport[] storageReports, long claimed,
      BlockReportContext context) throws IOException {
    List<String> storages = new ArrayList<>();
    counters.fullReportStarted();
    try {
      registrations.checkFullReport(registration, RegistrationCheck.storagesOf(storageReports));
      counters.fullReportsApplied.increment();
      for (StorageBlockReport report : storageReports) {
        counters.fullReported(reports.applyFull(registration.getDatanodeUuid(), report.getStorage().getStorageID(),
            report.getBlocks()));
        storages.add(report.getStorage().getStorageID());
      }
    } finally {
      counters.fullReportEnded();
    }
    if (claimed > 0 && election.claimedTerm() == claimed) {
      fullReports.reported(claimed, registration.getDatanodeUuid(), storages,
          context == null ? 0 : context.getReportId(), context == null ? 0 : context.getCurRpc(),
          context == null ? 1 : context.getTotalRpcs());
    }
  }

  @Override
  public DatanodeCommand cacheReport(DatanodeRegistration registration, String poolId, List<Long> blockIds)
      throws IOException {
    registrations.checkReport("cacheReport", registration, List.of());
    return null; // centralized caching is not supported: nothing to tell
  }

  @Override
  public void blockReceivedAndDeleted(DatanodeRegistration registration, String poolId,
      StorageReceivedDeletedBlocks[] receivedAndDeleted) throws IOException {
    registrations.checkReport("blockReceivedAndDeleted", registration,
        RegistrationCheck.storagesOf(receivedAndDeleted));
    checkPool(poolId);
    String uuid = registration.getDatanodeUuid();
    ReportAppliers.Route route = routeAndReplay(uuid);
    for (StorageReceivedDeletedBlocks storage : receivedAndDeleted) {
      List<ReportedReplica> changes = new ArrayList<>();
      for (ReceivedDeletedBlockInfo info : storage.getBlocks()) {
        Block block = info.getBlock();
        if (info.getStatus() == ReceivedDeletedBlockInfo.BlockStatus.RECEIVING_BLOCK) {
          // A pipeline target starting to receive changes nothing Canopy uses (expected targets already locate
          // an open block): skipping it halves the report transactions of every write.
          continue;
        }
        ReportedReplica.Kind kind = info.getStatus() == ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK
            ? ReportedReplica.Kind.FINALIZED : ReportedReplica.Kind.DELETED;
        changes.add(new ReportedReplica(block.getBlockId(), block.getGenerationStamp(), block.getNumBytes(), kind));
      }
      if (changes.isEmpty()) {
        continue;
      }
      String storageId = storage.getStorage().getStorageID();
      if (route.apply()) {
        reports.apply(uuid, storageId, changes);
        counters.replicasApplied.add(changes.size());
      } else {
        buffer.add(uuid, new ReportBuffer.Entry(services.now(), storageId, changes), appliers.keepMs());
        counters.replicasLeft.add(changes.size());
        for (ReportedReplica change : changes) {
          if (change.kind() == ReportedReplica.Kind.FINALIZED) {
            arrivals.reportedElsewhere(change.blockId()); // the applier commits it within milliseconds
          }
        }
      }
    }
  }

  /**
   * This namenode's part in a report or heartbeat of {@code datanodeUuid} now ({@link ReportAppliers}); when it has
   * just become the datanode's applier, it first applies what it kept of the handover period, in arrival order.
   */
  private ReportAppliers.Route routeAndReplay(String datanodeUuid) {
    // a heartbeat row gone stale says the applier does not hear this datanode (paused, dead, or not among the
    // namenodes the datanode knows): then this namenode, which hears it, applies too
    DatanodeRegistry.Node cached = registry.cachedNode(datanodeUuid);
    boolean unheard = cached != null && appliers.unheard(datanodeUuid, cached.record().lastHeartbeatMs());
    ReportAppliers.Route route = appliers.route(datanodeUuid, unheard);
    if (route.replayFirst()) {
      ReportBuffer.Replay replay = buffer.take(datanodeUuid, appliers.replayFromMs(datanodeUuid));
      boolean complete = !replay.incomplete();
      for (ReportBuffer.Entry entry : replay.entries()) {
        try {
          reports.apply(datanodeUuid, entry.storageId(), entry.replicas());
          counters.replicasReplayed.add(entry.replicas().size());
        } catch (IOException | RuntimeException e) {
          // taken from the buffer and not applied: the full report asked for below records them
          LOG.warn("Replaying a report of datanode {} failed: {}", datanodeUuid, e.toString());
          complete = false;
        }
      }
      LOG.info("Namenode {} now applies the reports of datanode {}: replayed {} kept reports{}", election.selfId(),
          datanodeUuid, replay.entries().size(), complete ? "" : "; some are missing, asking it for a full report");
      if (!complete) {
        fullReportWanted.add(datanodeUuid);
      }
    }
    return route;
  }

  /** What this namenode did with the reports and heartbeats it received (design 018). */
  public ReportCounters counters() {
    return counters;
  }

  @Override
  public void errorReport(DatanodeRegistration registration, int errorCode, String message) throws IOException {
    registrations.checkReport("errorReport", registration, List.of());
    LOG.warn("Datanode {} reports error {}: {}", registration.getDatanodeUuid(), errorCode, message);
  }

  /** A datanode's block scanner (or a failed transfer) found replicas corrupt. */
  @Override
  public void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    reports.reportBad(blocks);
  }

  @Override
  public void commitBlockSynchronization(ExtendedBlock block, long newGenerationStamp, long newLength,
      boolean closeFile, boolean deleteBlock, DatanodeID[] newTargets, String[] newTargetStorages)
      throws IOException {
    Long owner = runner.run(new BlockOwnerOp(Set.of(block.getBlockId()))).get(block.getBlockId());
    if (owner == null) {
      if (deleteBlock) {
        LOG.info("commitBlockSynchronization: block {} to delete is already gone", block);
        return; // a retry after the block went (with its file, or by an earlier call)
      }
      throw new IOException("Block (=" + block + ") not found");
    }
    runner.run(new CommitBlockSynchronizationOp(services, registry, owner, new CommitBlockSynchronizationOp.Request(
        block, newGenerationStamp, newLength, closeFile, deleteBlock,
        newTargets == null ? List.of() : Arrays.asList(newTargets),
        newTargetStorages == null ? List.of() : Arrays.asList(newTargetStorages))));
  }

  private void checkPool(String poolId) throws IOException {
    if (!services.blockPoolId().equals(poolId)) {
      throw new IOException("Block pool " + poolId + " is not this namespace's (" + services.blockPoolId()
          + "): the datanode belongs to another cluster or the namespace was formatted again");
    }
  }
}
