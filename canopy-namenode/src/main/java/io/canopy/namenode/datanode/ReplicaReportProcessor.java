package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.Replica;
import io.canopy.namenode.ops.BlockOwnerOp;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs.BlockReportReplica;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns datanode reports into per-file transactions: one transaction per file touched, each locking only that
 * file (so reports never hold several file locks and cannot deadlock with each other).
 */
public final class ReplicaReportProcessor {
  /**
   * How many times the reports of a block that moved to another file (concat) between its lookup and its file's
   * transaction follow it; past that they are dropped unapplied (never invalidated), and the storage's next full
   * report records them.
   */
  static final int MAX_MOVES_FOLLOWED = 3;
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaReportProcessor.class);
  private final TransactionRunner runner;
  private final int minReplication;
  private final LongSupplier clockMs;

  public ReplicaReportProcessor(TransactionRunner runner, int minReplication, LongSupplier clockMs) {
    this.runner = runner;
    this.minReplication = minReplication;
    this.clockMs = clockMs;
  }

  /** Incremental report of one storage. */
  public void apply(String datanodeUuid, String storageId, List<ReportedReplica> reports) throws IOException {
    if (reports.isEmpty()) {
      return;
    }
    Set<Long> blockIds = new HashSet<>();
    reports.forEach(r -> blockIds.add(r.blockId()));
    Map<Long, Long> owners = runner.run(new BlockOwnerOp(blockIds));
    Map<Long, List<ReportedReplica>> byFile = new TreeMap<>();
    List<ReportedReplica> unknown = new ArrayList<>();
    for (ReportedReplica report : reports) {
      Long owner = owners.get(report.blockId());
      if (owner != null) {
        byFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
      } else if (report.kind() == ReportedReplica.Kind.FINALIZED) {
        unknown.add(report);
      }
    }
    applyByFile(datanodeUuid, storageId, byFile, unknown);
  }

  /**
   * Full report of one storage: only the differences with what is recorded cost a transaction, so an unchanged
   * storage (a restarted datanode) costs two reads.
   */
  public void applyFull(String datanodeUuid, String storageId, BlockListAsLongs blocks) throws IOException {
    Map<Long, ReportedReplica> reported = new HashMap<>();
    for (BlockReportReplica replica : blocks) {
      if (replica.getState() == ReplicaState.FINALIZED) {
        reported.put(replica.getBlockId(), new ReportedReplica(replica.getBlockId(),
            replica.getGenerationStamp(), replica.getNumBytes(), ReportedReplica.Kind.FINALIZED));
      }
    }
    Map<Long, List<ReportedReplica>> byFile = new TreeMap<>();
    for (Replica recorded : runner.run(new StorageReplicasOp(storageId))) {
      if (reported.remove(recorded.blockId()) == null) {
        byFile.computeIfAbsent(recorded.inodeId(), i -> new ArrayList<>()).add(new ReportedReplica(
            recorded.blockId(), 0, 0, ReportedReplica.Kind.ABSENT));
      }
    }
    List<ReportedReplica> unknown = new ArrayList<>();
    if (!reported.isEmpty()) {
      Map<Long, Long> owners = runner.run(new BlockOwnerOp(reported.keySet()));
      for (ReportedReplica report : reported.values()) {
        Long owner = owners.get(report.blockId());
        if (owner == null) {
          unknown.add(report);
        } else {
          byFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
        }
      }
    }
    applyByFile(datanodeUuid, storageId, byFile, unknown);
  }

  private void applyByFile(String datanodeUuid, String storageId, Map<Long, List<ReportedReplica>> byFile,
      List<ReportedReplica> unknown) throws IOException {
    List<ReportedReplica> moved = applyEach(datanodeUuid, storageId, byFile);
    for (int follow = 1; !moved.isEmpty(); follow++) {
      if (follow > MAX_MOVES_FOLLOWED) {
        LOG.warn("{} replica report(s) of storage {} left unapplied: their blocks kept moving between files",
            moved.size(), storageId);
        break;
      }
      Map<Long, Long> owners = runner.run(new BlockOwnerOp(moved.stream().map(ReportedReplica::blockId).toList()));
      Map<Long, List<ReportedReplica>> byNewFile = new TreeMap<>();
      for (ReportedReplica report : moved) {
        Long owner = owners.get(report.blockId());
        if (owner != null) {
          byNewFile.computeIfAbsent(owner, o -> new ArrayList<>()).add(report);
        } else if (report.kind() == ReportedReplica.Kind.FINALIZED) {
          unknown.add(report);
        }
      }
      moved = applyEach(datanodeUuid, storageId, byNewFile);
    }
    if (!unknown.isEmpty()) {
      runner.run(new InvalidateUnknownOp(datanodeUuid, unknown));
    }
  }

  /** Applies each file's reports in its own transaction; answers the reports whose blocks moved to another file. */
  private List<ReportedReplica> applyEach(String datanodeUuid, String storageId,
      Map<Long, List<ReportedReplica>> byFile) throws IOException {
    List<ReportedReplica> moved = new ArrayList<>();
    for (Map.Entry<Long, List<ReportedReplica>> file : byFile.entrySet()) {
      moved.addAll(runner.run(new ApplyReplicaReportsOp(file.getKey(), datanodeUuid, storageId, file.getValue(),
          minReplication, clockMs.getAsLong())));
    }
    return moved;
  }
}
