package io.canopy.namenode.replication;

import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's dead-datanode duty (HDFS's HeartbeatManager check): a datanode whose last heartbeat is older than
 * HDFS's dead interval is declared dead ({@link DeclareDatanodeDeadOp}), then its replica records are removed file by
 * file ({@link RemoveDeadReplicasOp}, at most {@code canopy.namenode.dead-datanode.files-per-run} per run, continuing
 * on the next run) and the blocks left short are queued for the replication duty. A new leader finds the datanodes
 * still marked and removes what is left: every step is idempotent.
 */
public final class DeadDatanodeMonitor implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(DeadDatanodeMonitor.class);
  /** Missing block ids named in one datanode's summary line at most. */
  private static final int MISSING_IN_SUMMARY = 100;

  /** Progress through one dead datanode's storages. */
  private static final class Drain {
    final long declaredDeadAtMs;
    final List<String> storageIds;
    int storage;
    ReplicaKey after;
    int files;
    int replicas;
    int queued;
    final Set<Long> missing = new LinkedHashSet<>();
    int missingCount;

    Drain(long declaredDeadAtMs, List<String> storageIds) {
      this.declaredDeadAtMs = declaredDeadAtMs;
      this.storageIds = storageIds;
    }
  }

  private final TransactionRunner runner;
  private final ReplicationServices services;
  private final Map<String, Drain> drains = new HashMap<>();
  /** Datanodes whose replicas are all removed: uuid to the time they were declared dead. */
  private final Map<String, Long> drained = new HashMap<>();
  private long term;

  public DeadDatanodeMonitor(TransactionRunner runner, ReplicationServices services) {
    this.runner = runner;
    this.services = services;
  }

  @Override
  public String name() {
    return "dead-datanodes";
  }

  @Override
  public long intervalMs() {
    return services.settings().deadCheckIntervalMs();
  }

  @Override
  public void run(long newTerm) throws IOException {
    if (newTerm != term) {
      drains.clear();
      drained.clear();
      term = newTerm;
    }
    DatanodeRegistry registry = services.registry();
    registry.reload();
    int budget = services.settings().deadFilesPerRun();
    for (DatanodeRegistry.Node node : registry.all()) {
      DatanodeRecord record = node.record();
      String uuid = record.uuid();
      if (!record.isDeclaredDead()) {
        drains.remove(uuid);
        drained.remove(uuid);
        record = declareIfDead(record);
        if (record == null) {
          continue;
        }
      }
      if (drained.getOrDefault(uuid, 0L) == record.declaredDeadAtMs()) {
        continue;
      }
      budget = drain(record, node.storages(), budget);
      if (budget <= 0) {
        return; // the rest on the next run
      }
    }
  }

  /** The record marked dead, or null when the datanode is not dead (or heartbeated just now). */
  private DatanodeRecord declareIfDead(DatanodeRecord record) throws IOException {
    long now = services.now();
    long deadIntervalMs = services.registry().deadIntervalMs();
    long silentMs = now - record.lastHeartbeatMs();
    if (silentMs < deadIntervalMs) {
      return null;
    }
    DatanodeRecord dead = runner.run(new DeclareDatanodeDeadOp(record.uuid(), term, now, deadIntervalMs));
    if (dead != null) {
      LOG.warn("Datanode {} ({}:{}) is dead: no heartbeat for {} ms (dead interval {} ms); removing its replica "
          + "records and re-replicating its blocks", dead.uuid(), dead.ipAddress(), dead.transferPort(), silentMs,
          deadIntervalMs);
    }
    return dead;
  }

  /** Removes the dead datanode's replicas of at most {@code budget} files; returns the budget left. */
  private int drain(DatanodeRecord record, List<StorageRecord> storages, int budget) throws IOException {
    String uuid = record.uuid();
    Drain drain = drains.get(uuid);
    if (drain == null || drain.declaredDeadAtMs != record.declaredDeadAtMs()) {
      drain = new Drain(record.declaredDeadAtMs(), storages.stream().map(StorageRecord::storageId).sorted().toList());
      drains.put(uuid, drain);
    }
    Set<String> storageIds = Set.copyOf(drain.storageIds);
    int pageSize = services.settings().storagePageSize();
    while (drain.storage < drain.storageIds.size()) {
      String storageId = drain.storageIds.get(drain.storage);
      List<Replica> page = runner.run(new StorageReplicaPageOp(storageId, drain.after, pageSize));
      long lastInode = Long.MIN_VALUE;
      for (Replica replica : page) {
        if (replica.inodeId() == lastInode) {
          continue; // the file's transaction removed all its replicas on this datanode
        }
        if (budget <= 0) {
          return 0;
        }
        lastInode = replica.inodeId();
        RemoveDeadReplicasOp.Result result = runner.run(new RemoveDeadReplicasOp(lastInode, uuid,
            drain.declaredDeadAtMs, storageIds, term, services));
        if (result.revived()) {
          LOG.info("Datanode {} registered again: its block report replaces its replica records, no more removed",
              uuid);
          drains.remove(uuid);
          return budget;
        }
        budget--;
        count(drain, result);
        drain.after = new ReplicaKey(lastInode, Long.MAX_VALUE, storageId);
      }
      if (page.size() < pageSize) {
        drain.storage++;
        drain.after = null;
      }
    }
    drains.remove(uuid);
    drained.put(uuid, drain.declaredDeadAtMs);
    if (drain.files == 0) {
      LOG.debug("Dead datanode {}: no replica records left to remove", uuid);
      return budget;
    }
    LOG.warn("Dead datanode {} ({}:{}): removed {} replica records of {} files; {} blocks queued for "
        + "re-replication, {} of them MISSING (no live replica left){}", uuid, record.ipAddress(),
        record.transferPort(), drain.replicas, drain.files, drain.queued, drain.missingCount,
        drain.missing.isEmpty() ? "" : ": " + drain.missing
            + (drain.missingCount > drain.missing.size() ? " ..." : ""));
    return budget;
  }

  private static void count(Drain drain, RemoveDeadReplicasOp.Result result) {
    drain.files++;
    drain.replicas += result.replicasRemoved();
    drain.queued += result.blocksQueued();
    drain.missingCount += result.missingBlocks().size();
    for (long blockId : result.missingBlocks()) {
      if (drain.missing.size() < MISSING_IN_SUMMARY) {
        drain.missing.add(blockId);
      }
    }
  }
}
