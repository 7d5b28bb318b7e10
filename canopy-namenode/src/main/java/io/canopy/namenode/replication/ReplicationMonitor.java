package io.canopy.namenode.replication;

import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.membership.NotLeaderException;
import io.canopy.namenode.tx.TransactionRunner;
import io.canopy.namenode.topology.NetworkLocation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's replication duty (HDFS's RedundancyMonitor): each run works through a bounded part of the replication
 * queue, most urgent blocks first, continuing where the previous run stopped and starting over once it reached the
 * end. Each file with queued blocks is one fenced transaction ({@link RepairBlocksOp}); the copies it schedules go
 * out with their sources' heartbeats ({@link TransferCommandSource}). At most {@code live datanodes x
 * dfs.namenode.replication.work.multiplier.per.iteration} copies are scheduled per run.
 */
public final class ReplicationMonitor implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationMonitor.class);

  private final TransactionRunner runner;
  private final ReplicationServices services;
  private final MissingBlockLog missing;
  private final IdleRows idle;
  /** Where the next run continues (null: from the start); only the duty thread touches it. */
  private QueuedBlock cursor;

  public ReplicationMonitor(TransactionRunner runner, ReplicationServices services) {
    this.runner = runner;
    this.services = services;
    this.missing = new MissingBlockLog(services.settings().missingLogLimit());
    this.idle = new IdleRows(services.clockMs(), services.settings().idleBackoffMs(),
        services.settings().idleRowsLimit());
  }

  @Override
  public String name() {
    return "replication";
  }

  @Override
  public long intervalMs() {
    return services.settings().monitorIntervalMs();
  }

  @Override
  public void run(long term) throws IOException {
    if (services.pending().term() != term) {
      services.pending().startTerm(term);
      services.recentDeletions().clear();
      missing.clear();
      idle.clear();
      cursor = null;
      LOG.info("Replication duty starts in leader term {}", term);
    }
    settlePendingTransfers();
    ReplicationSettings settings = services.settings();
    Set<String> live = new HashSet<>();
    List<NetworkLocation> liveLocations = new ArrayList<>();
    services.registry().live().forEach(node -> {
      live.add(node.record().uuid());
      liveLocations.add(node.location());
    });
    ReplicaSpread spread = ReplicaSpread.of(liveLocations);
    idle.liveDatanodesAre(live);
    int transfersLeft = Math.max(1, live.size() * settings.workMultiplier());
    Map<BlockOutcome.Kind, Integer> tally = new EnumMap<>(BlockOutcome.Kind.class);
    Set<Long> filesSeen = new HashSet<>();
    int examined = 0;
    QueuedBlock after = cursor;
    boolean reachedEnd = false;
    while (examined < settings.blocksPerRun() && !reachedEnd) {
      List<QueuedBlock> page = runner.run(new QueuePageOp(after, settings.queuePageSize()));
      reachedEnd = page.size() < settings.queuePageSize();
      for (QueuedBlock row : page) {
        if (examined >= settings.blocksPerRun()) {
          reachedEnd = false;
          break;
        }
        after = row;
        examined++;
        if (idle.isIdle(row)) {
          tally.merge(BlockOutcome.Kind.IDLE, 1, Integer::sum);
          continue;
        }
        if (!filesSeen.add(row.inodeId())) {
          continue; // the file's transaction looked at all its queued blocks
        }
        List<QueuedBlock> ofFile = page.stream().filter(r -> r.inodeId() == row.inodeId()).toList();
        if (ofFile.stream().allMatch(r -> r.notBeforeMs() > services.now())) {
          tally.merge(BlockOutcome.Kind.NOT_DUE, 1, Integer::sum);
          continue;
        }
        transfersLeft -= repairFile(row.inodeId(), term, transfersLeft, spread, tally, ofFile);
      }
    }
    cursor = reachedEnd ? null : after;
    logRun(term, examined, tally);
  }

  /**
   * Forgets the transfers that arrived (or whose block is gone), those whose source is no longer live (the block is
   * copied from another holder on a later run) and those older than the pending timeout.
   */
  private void settlePendingTransfers() throws IOException {
    PendingTransfers pending = services.pending();
    for (PendingTransfers.Transfer expired : pending.expire()) {
      LOG.warn("Copy of block {} from datanode {} to {} was not confirmed within {} ms: it will be scheduled again",
          expired.blockId(), expired.sourceUuid(), expired.targets(), services.settings().pendingTimeoutMs());
    }
    List<PendingTransfers.Transfer> transfers = pending.all();
    if (transfers.isEmpty()) {
      return;
    }
    for (long blockId : runner.run(new SettledTransfersOp(transfers))) {
      pending.forget(blockId);
    }
    for (PendingTransfers.Transfer transfer : pending.all()) {
      DatanodeRegistry.Node source = services.registry().node(transfer.sourceUuid());
      if (source == null || !services.registry().isLive(source.record())) {
        pending.forget(transfer.blockId());
        LOG.info("Copy of block {} forgotten: its source datanode {} is not live any more", transfer.blockId(),
            transfer.sourceUuid());
      }
    }
  }

  /**
   * Runs one file's repair and applies its outcomes; returns the number of copies it scheduled. When nothing could be
   * done for any of its blocks, the rows seen ({@code rows}) are left alone until something changes.
   */
  private int repairFile(long inodeId, long term, int transfersLeft, ReplicaSpread spread,
      Map<BlockOutcome.Kind, Integer> tally, List<QueuedBlock> rows) throws NotLeaderException {
    List<BlockOutcome> outcomes;
    try {
      outcomes = runner.run(new RepairBlocksOp(inodeId, term, services, transfersLeft, spread));
    } catch (NotLeaderException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Replication of the blocks of file inode {} failed; it is retried on a later run", inodeId, e);
      return 0;
    }
    int scheduled = 0;
    boolean helpless = !outcomes.isEmpty();
    for (BlockOutcome outcome : outcomes) {
      tally.merge(outcome.kind(), 1, Integer::sum);
      scheduled += apply(outcome);
      helpless &= outcome.kind() == BlockOutcome.Kind.MISSING || outcome.kind() == BlockOutcome.Kind.NO_TARGET;
    }
    if (helpless) {
      rows.forEach(idle::idle);
    }
    return scheduled;
  }

  private int apply(BlockOutcome outcome) {
    long blockId = outcome.blockId();
    switch (outcome.kind()) {
      case TRANSFER_SCHEDULED -> {
        PendingTransfers.Transfer transfer = outcome.transfer();
        services.pending().schedule(transfer);
        missing.found(blockId);
        LOG.info("Block {} of file inode {} is short of replicas, or has them all in one zone or rack: copying it "
            + "from datanode {} to {}", blockId, outcome.inodeId(), transfer.sourceUuid(), transfer.targets());
        return 1;
      }
      case EXCESS_REMOVED, CORRUPT_REMOVED -> {
        services.pending().forget(blockId);
        outcome.datanodes().forEach(uuid -> services.recentDeletions().add(blockId, uuid));
        LOG.info("Block {} of file inode {} had {} replicas: removed (deletion queued) on datanodes {}", blockId,
            outcome.inodeId(), outcome.kind() == BlockOutcome.Kind.EXCESS_REMOVED ? "excess" : "corrupt",
            outcome.datanodes());
        missing.found(blockId);
      }
      case DONE, GONE -> {
        services.pending().forget(blockId);
        missing.found(blockId);
      }
      case MISSING -> missing.missing(outcome.inodeId(), blockId, outcome.datanodes());
      case NOT_DUE -> {
        // looked at later
      }
      default -> missing.found(blockId); // live replicas, waiting for a copy slot or a target
    }
    return 0;
  }

  private void logRun(long term, int examined, Map<BlockOutcome.Kind, Integer> tally) {
    boolean acted = tally.containsKey(BlockOutcome.Kind.TRANSFER_SCHEDULED)
        || tally.containsKey(BlockOutcome.Kind.EXCESS_REMOVED) || tally.containsKey(BlockOutcome.Kind.CORRUPT_REMOVED)
        || tally.containsKey(BlockOutcome.Kind.DONE);
    if (acted) {
      LOG.info("Replication run (term {}): {} queued blocks examined: {}; {} copies pending", term, examined, tally,
          services.pending().size());
    } else if (examined > 0) {
      LOG.debug("Replication run (term {}): {} queued blocks examined: {}", term, examined, tally);
    }
  }
}
