package io.canopy.namenode.datanode;

import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.safemode.FutureBlocksOp;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of replicas datanodes report of blocks no file holds. Those from the future (the database is older than
 * the datanodes' contents) are kept and hold safe mode ({@link FutureBlocksOp}). The others are garbage (a file deleted
 * while its block was written, an abandoned block, a deletion its datanode missed) and are deleted, by the leader only:
 * never in safe mode, and after a leader change only once every live datanode has sent the new leader a full report
 * ({@link FullReportTracker}), as HDFS postpones such deletions after a failover. Until then they wait in a bounded
 * list the leader goes through again ({@link #run}); what overflows it is found again in the datanode's next full
 * report.
 */
public final class UnknownReplicas implements LeaderWork {
  /** Replicas kept waiting for their deletion at most; the oldest are dropped beyond. */
  static final int MAX_POSTPONED = 100_000;
  private static final Logger LOG = LoggerFactory.getLogger(UnknownReplicas.class);

  private record Key(String datanodeUuid, long blockId) {
  }

  private final TransactionRunner runner;
  private final LongSupplier leaderTerm;
  private final SafeMode safeMode;
  private final FullReportTracker reports;
  private final DatanodeRegistry registry;
  private final LongSupplier clockMs;
  private final long intervalMs;
  private final LinkedHashMap<Key, ReportedReplica> postponed = new LinkedHashMap<>();

  /**
   * @param leaderTerm this namenode's leader term while its lease holds, else 0
   * @param intervalMs how often the leader looks at the postponed replicas again
   */
  public UnknownReplicas(TransactionRunner runner, LongSupplier leaderTerm, SafeMode safeMode,
      FullReportTracker reports, DatanodeRegistry registry, LongSupplier clockMs, long intervalMs) {
    this.runner = runner;
    this.leaderTerm = leaderTerm;
    this.safeMode = safeMode;
    this.reports = reports;
    this.registry = registry;
    this.clockMs = clockMs;
    this.intervalMs = intervalMs;
  }

  /** Replicas of {@code datanodeUuid} whose blocks no file held when looked up. */
  public void handle(String datanodeUuid, List<ReportedReplica> unknown) throws IOException {
    if (unknown.isEmpty()) {
      return;
    }
    List<ReportedReplica> garbage = runner.run(new FutureBlocksOp(datanodeUuid, unknown, clockMs.getAsLong()));
    long term = leaderTerm.getAsLong();
    if (garbage.isEmpty() || term <= 0) {
      return; // only the leader deletes; every namenode receives every report
    }
    if (!deletionsAllowed(term)) {
      postpone(datanodeUuid, garbage);
      return;
    }
    runner.run(new InvalidateUnknownOp(datanodeUuid, garbage, term));
  }

  private boolean deletionsAllowed(long term) throws IOException {
    if (safeMode.isOn()) {
      return false;
    }
    Set<String> live = new HashSet<>();
    registry.live().forEach(node -> live.add(node.record().uuid()));
    return reports.allReported(term, live);
  }

  private synchronized void postpone(String datanodeUuid, List<ReportedReplica> garbage) {
    for (ReportedReplica replica : garbage) {
      postponed.put(new Key(datanodeUuid, replica.blockId()), replica);
    }
    int dropped = 0;
    while (postponed.size() > MAX_POSTPONED) {
      postponed.remove(postponed.keySet().iterator().next());
      dropped++;
    }
    if (dropped > 0) {
      LOG.warn("{} postponed deletions of unknown blocks dropped (more than {} waiting): the datanodes' next full "
          + "reports find them again", dropped, MAX_POSTPONED);
    }
  }

  /** How many deletions wait for the leader's datanodes to report (tests, logs). */
  public synchronized int postponedCount() {
    return postponed.size();
  }

  @Override
  public String name() {
    return "postponedDeletions";
  }

  @Override
  public long intervalMs() {
    return intervalMs;
  }

  /** The leader deletes what it postponed, once deletions are allowed. */
  @Override
  public void run(long term) throws IOException {
    Map<String, List<ReportedReplica>> byDatanode = new LinkedHashMap<>();
    synchronized (this) {
      if (postponed.isEmpty()) {
        return;
      }
    }
    if (!deletionsAllowed(term)) {
      return;
    }
    synchronized (this) {
      postponed.forEach((key, replica) -> byDatanode.computeIfAbsent(key.datanodeUuid(), u -> new ArrayList<>())
          .add(replica));
      postponed.clear();
    }
    int scheduled = 0;
    List<Map.Entry<String, List<ReportedReplica>>> datanodes = new ArrayList<>(byDatanode.entrySet());
    for (int i = 0; i < datanodes.size(); i++) {
      try {
        scheduled += runner.run(new InvalidateUnknownOp(datanodes.get(i).getKey(), datanodes.get(i).getValue(),
            term));
      } catch (IOException | RuntimeException e) {
        for (Map.Entry<String, List<ReportedReplica>> left : datanodes.subList(i, datanodes.size())) {
          postpone(left.getKey(), left.getValue()); // tried again on a later run
        }
        throw e;
      }
    }
    LOG.info("Deletion of {} replica(s) of unknown blocks, postponed until every live datanode had reported to the "
        + "leader of term {}, scheduled", scheduled, term);
  }

  @Override
  public boolean runsInSafeMode() {
    return true; // it checks safe mode itself, and only ever deletes outside it
  }
}
