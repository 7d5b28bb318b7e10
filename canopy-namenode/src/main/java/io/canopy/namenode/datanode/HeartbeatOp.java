package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * sendHeartbeat: stores the datanode's figures and storages (unless {@code storeFigures} is false: the leader when
 * another namenode is the datanode's applier, design 018) and, on the leader (a positive {@code leaderTerm}, fenced),
 * takes (removes) up to {@code maxDeletions} (0: none, as in safe mode) replica deletions queued for it. Null when
 * the datanode is unknown or was declared dead: it must register again.
 */
public final class HeartbeatOp implements Operation<HeartbeatOp.Result> {
  /**
   * The stored datanode, its storages (both as they were when the figures were not stored: {@code stored} false),
   * and the replicas it must delete.
   */
  public record Result(DatanodeRecord record, List<StorageRecord> storages, List<InvalidatedBlock> deletions,
      boolean stored) {
  }

  private final String uuid;
  private final StorageReport[] reports;
  private final int transceiverCount;
  private final long nowMs;
  private final int maxDeletions;
  private final long leaderTerm;
  private final boolean storeFigures;

  public HeartbeatOp(String uuid, StorageReport[] reports, int transceiverCount, long nowMs, int maxDeletions,
      long leaderTerm) {
    this(uuid, reports, transceiverCount, nowMs, maxDeletions, leaderTerm, true);
  }

  public HeartbeatOp(String uuid, StorageReport[] reports, int transceiverCount, long nowMs, int maxDeletions,
      long leaderTerm, boolean storeFigures) {
    this.storeFigures = storeFigures;
    this.leaderTerm = leaderTerm;
    this.uuid = uuid;
    this.reports = reports;
    this.transceiverCount = transceiverCount;
    this.nowMs = nowMs;
    this.maxDeletions = maxDeletions;
  }

  @Override
  public String name() {
    return "sendHeartbeat";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public Result execute(TransactionContext context) throws IOException {
    ClusterTables transaction = context.cluster();
    if (leaderTerm > 0) {
      LeaderFence.check(transaction.variables(), leaderTerm);
    }
    Optional<DatanodeRecord> existing = transaction.datanodes().get(uuid,
        storeFigures ? LockMode.EXCLUSIVE : LockMode.NONE);
    if (existing.isEmpty() || existing.get().isDeclaredDead()) {
      // Unknown, or declared dead by the leader (its replicas were removed): it must register again, which makes
      // it send a full block report, before anything it says counts.
      return null;
    }
    if (!storeFigures) {
      return new Result(existing.get(), List.of(), takeDeletions(transaction), false);
    }
    Map<String, StorageRecord> known = new HashMap<>();
    transaction.storages().ofDatanode(uuid).forEach(s -> known.put(s.storageId(), s));
    List<StorageRecord> storages = new ArrayList<>();
    long capacity = 0;
    long dfsUsed = 0;
    long remaining = 0;
    long blockPoolUsed = 0;
    long nonDfsUsed = 0;
    for (StorageReport report : reports) {
      StorageRecord storage = new StorageRecord(uuid, report.getStorage().getStorageID(),
          report.getStorage().getStorageType().name(), report.isFailed(), report.getCapacity(),
          report.getDfsUsed(), report.getRemaining(), report.getBlockPoolUsed());
      if (known.remove(storage.storageId()) == null) {
        transaction.storages().insert(storage);
      } else {
        transaction.storages().update(storage);
      }
      storages.add(storage);
      capacity += report.getCapacity();
      dfsUsed += report.getDfsUsed();
      remaining += report.getRemaining();
      blockPoolUsed += report.getBlockPoolUsed();
      nonDfsUsed += report.getNonDfsUsed();
    }
    DatanodeRecord record = existing.get().withHeartbeat(nowMs, capacity, dfsUsed, remaining, blockPoolUsed,
        nonDfsUsed, transceiverCount);
    transaction.datanodes().update(record);
    return new Result(record, storages, takeDeletions(transaction), true);
  }

  private List<InvalidatedBlock> takeDeletions(ClusterTables transaction) throws IOException {
    if (leaderTerm <= 0 || maxDeletions <= 0) {
      return List.of();
    }
    List<InvalidatedBlock> deletions = transaction.invalidations().ofDatanode(uuid, maxDeletions);
    deletions.forEach(transaction.invalidations()::delete);
    return deletions;
  }
}
