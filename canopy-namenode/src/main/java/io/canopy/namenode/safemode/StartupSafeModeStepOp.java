package io.canopy.namenode.safemode;

import io.canopy.metadata.dal.VariableTable;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * One step of the leader's startup safe mode, fenced by its term: stores the counts it just made (for every
 * namenode's safe mode tip), marks when the thresholds were first met, and turns safe mode off once they are met and
 * either the extension has passed or every registered datanode has reported (nobody is left to wait for). Blocks from
 * the future hold it on whatever the counts. Answers the state afterwards.
 */
final class StartupSafeModeStepOp implements Operation<SafeModeState> {
  /** What the leader counted. */
  record Counts(long safeBlocks, long totalBlocks, int liveDatanodes, boolean everyDatanodeReported) {
  }

  private final SafeModeSettings settings;
  private final long term;
  private final Counts counts;
  private final long nowMs;

  StartupSafeModeStepOp(SafeModeSettings settings, long term, Counts counts, long nowMs) {
    this.settings = settings;
    this.term = term;
    this.counts = counts;
    this.nowMs = nowMs;
  }

  @Override
  public String name() {
    return "startupSafeModeStep";
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
  public SafeModeState execute(TransactionContext context) throws IOException {
    ClusterTables transaction = context.cluster();
    LeaderFence.check(transaction.variables(), term);
    SafeModeState state = SafeModeVariables.readLocked(transaction);
    if (!state.startup()) {
      return state;
    }
    VariableTable variables = transaction.variables();
    variables.putLong(SafeModeVariables.SAFE_BLOCKS, counts.safeBlocks());
    variables.putLong(SafeModeVariables.TOTAL_BLOCKS, counts.totalBlocks());
    variables.putLong(SafeModeVariables.LIVE_DATANODES, counts.liveDatanodes());
    long reachedAtMs = state.reachedAtMs();
    boolean met = settings.thresholdsMet(counts.safeBlocks(), counts.totalBlocks(), counts.liveDatanodes());
    if (met && reachedAtMs == 0) {
      reachedAtMs = nowMs;
      variables.putLong(SafeModeVariables.REACHED_AT_MS, reachedAtMs);
    }
    boolean held = state.futureBlocks() > 0;
    boolean extensionOver = reachedAtMs != 0 && nowMs - reachedAtMs >= settings.extensionMs();
    if (met && !held && (extensionOver || counts.everyDatanodeReported())) {
      SafeModeVariables.leaveStartup(transaction, false);
      return state.manual() ? SafeModeState.OFF.withManual(true) : SafeModeState.OFF;
    }
    return new SafeModeState(state.manual(), true, reachedAtMs, counts.safeBlocks(), counts.totalBlocks(),
        counts.liveDatanodes(), state.futureBlocks(), state.futureBytes());
  }
}
