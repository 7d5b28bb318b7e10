package io.canopy.namenode.safemode;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.FutureBlock;
import io.canopy.namenode.datanode.ReportedReplica;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sorts reported replicas of blocks no file holds into blocks from the future and ordinary garbage; answers the
 * ordinary ones. A block is from the future when its id or generation stamp lies at or beyond the id counters (as they
 * were when the first such block was seen, kept in {@link SafeModeVariables#FUTURE_BLOCK_ID_BASELINE} and
 * {@link SafeModeVariables#FUTURE_STAMP_BASELINE}): no namenode ever handed it out, so the datanodes hold data newer
 * than the database, which was restored from an older copy. Such blocks are recorded ({@code future_blocks}), never
 * deleted, the startup safe mode is turned on and held until an operator forces it off, and the counters move past
 * them so no id or stamp is handed out twice.
 *
 * <p>The common case (nothing beyond the counters) costs reads only; finding future blocks locks the counters, which
 * serializes with id allocation, so an id checked free here is never handed out meanwhile.
 */
public final class FutureBlocksOp implements Operation<List<ReportedReplica>> {
  private static final Logger LOG = LoggerFactory.getLogger(FutureBlocksOp.class);

  private final String datanodeUuid;
  private final List<ReportedReplica> unknown;
  private final long nowMs;

  public FutureBlocksOp(String datanodeUuid, List<ReportedReplica> unknown, long nowMs) {
    this.datanodeUuid = datanodeUuid;
    this.unknown = List.copyOf(unknown);
    this.nowMs = nowMs;
  }

  @Override
  public String name() {
    return "futureBlocks";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public List<ReportedReplica> execute(TransactionContext context) throws IOException {
    ClusterTables transaction = context.cluster();
    if (split(transaction, LockMode.NONE).isEmpty()) {
      return unknown;
    }
    // Some may be from the future: look again with the safe mode flag and the counters locked.
    transaction.variables().getLong(SafeModeVariables.STARTUP, LockMode.EXCLUSIVE);
    Map<Long, ReportedReplica> future = split(transaction, LockMode.EXCLUSIVE);
    if (future.isEmpty()) {
      return unknown;
    }
    long baselineBlockId = baseline(transaction, SafeModeVariables.FUTURE_BLOCK_ID_BASELINE, IdKind.BLOCK);
    long baselineStamp = baseline(transaction, SafeModeVariables.FUTURE_STAMP_BASELINE, IdKind.GENERATION_STAMP);
    Map<Long, FutureBlock> known = transaction.futureBlocks().get(future.keySet());
    long newBlocks = 0;
    long newBytes = 0;
    long maxBlockId = 0;
    long maxStamp = 0;
    for (ReportedReplica replica : future.values()) {
      maxBlockId = Math.max(maxBlockId, replica.blockId());
      maxStamp = Math.max(maxStamp, replica.generationStamp());
      if (!known.containsKey(replica.blockId())) {
        transaction.futureBlocks().insert(new FutureBlock(replica.blockId(), replica.generationStamp(),
            replica.numBytes(), datanodeUuid, nowMs));
        newBlocks++;
        newBytes += replica.numBytes();
      }
    }
    transaction.idCounters().advanceTo(IdKind.BLOCK, maxBlockId + 1);
    transaction.idCounters().advanceTo(IdKind.GENERATION_STAMP, maxStamp + 1);
    SafeModeState state = SafeModeVariables.read(transaction);
    if (newBlocks > 0) {
      transaction.variables().putLong(SafeModeVariables.FUTURE_BLOCKS, state.futureBlocks() + newBlocks);
      transaction.variables().putLong(SafeModeVariables.FUTURE_BYTES, state.futureBytes() + newBytes);
    }
    if (!state.startup()) {
      SafeModeVariables.enterStartup(transaction.variables());
    }
    long added = newBlocks;
    long addedBytes = newBytes;
    long firstBlockId = baselineBlockId;
    long firstStamp = baselineStamp;
    if (added == 0) {
      return ordinary(future);
    }
    context.afterCommit(() -> LOG.error("Datanode {} holds {} new block(s) ({} bytes) from the future: ids from {} "
        + "or generation stamps from {} on were never handed out by this database, which must have been restored "
        + "from an older copy. They are kept, and safe mode stays on until an operator runs "
        + "\"hdfs dfsadmin -safemode forceExit\".", datanodeUuid, added, addedBytes, firstBlockId, firstStamp));
    return ordinary(future);
  }

  /** The reported replicas that are not from the future. */
  private List<ReportedReplica> ordinary(Map<Long, ReportedReplica> future) {
    List<ReportedReplica> ordinary = new ArrayList<>();
    for (ReportedReplica replica : unknown) {
      if (!future.containsKey(replica.blockId())) {
        ordinary.add(replica);
      }
    }
    return ordinary;
  }

  /** The reported replicas at or beyond the baselines, or the counters when no baseline is set, by block id. */
  private Map<Long, ReportedReplica> split(ClusterTables transaction, LockMode lock) throws IOException {
    long blockBoundary = boundary(transaction, SafeModeVariables.FUTURE_BLOCK_ID_BASELINE, IdKind.BLOCK, lock);
    long stampBoundary = boundary(transaction, SafeModeVariables.FUTURE_STAMP_BASELINE, IdKind.GENERATION_STAMP,
        lock);
    Map<Long, ReportedReplica> future = new LinkedHashMap<>();
    for (ReportedReplica replica : unknown) {
      if (replica.blockId() >= blockBoundary || replica.generationStamp() >= stampBoundary) {
        future.putIfAbsent(replica.blockId(), replica);
      }
    }
    return future;
  }

  private static long boundary(ClusterTables transaction, String baselineVariable, IdKind kind, LockMode lock)
      throws IOException {
    long baseline = transaction.variables().getLong(baselineVariable, lock).orElse(0);
    long counter = transaction.idCounters().next(kind, lock); // locked, allocations wait for this transaction
    return baseline != 0 ? Math.min(baseline, counter) : counter;
  }

  /** The baseline of {@code kind}, set now to the counter when none is (under the locks taken by the caller). */
  private static long baseline(ClusterTables transaction, String baselineVariable, IdKind kind) throws IOException {
    long baseline = transaction.variables().getLong(baselineVariable, LockMode.EXCLUSIVE).orElse(0);
    if (baseline == 0) {
      baseline = transaction.idCounters().next(kind, LockMode.EXCLUSIVE);
      transaction.variables().putLong(baselineVariable, baseline);
    }
    return baseline;
  }
}
