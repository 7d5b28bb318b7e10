package io.canopy.namenode.safemode;

import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;

/**
 * Turns the startup safe mode on for a cluster that starts (the first namenode to run finds no other): until datanodes
 * have reported enough of the {@code totalBlocks} complete blocks, namenodes change nothing and the leader neither
 * copies nor deletes replicas (the datanode view in the database is as old as the last shutdown). A namespace whose
 * thresholds are met at once does not enter it when no datanode is registered either (a new cluster); unlike HDFS, one
 * with registered datanodes does, however few its blocks, and leaves once they have reported (or after the
 * extension): a datanode may hold blocks from the future, which must be seen before any id is handed out again. A
 * cluster that stopped during its safe mode starts it afresh (the extension from now, the counts anew). Answers the
 * state.
 */
public final class EnterStartupSafeModeOp implements Operation<SafeModeState> {
  private final SafeModeSettings settings;
  private final long totalBlocks;
  private final int registeredDatanodes;

  public EnterStartupSafeModeOp(SafeModeSettings settings, long totalBlocks, int registeredDatanodes) {
    this.settings = settings;
    this.totalBlocks = totalBlocks;
    this.registeredDatanodes = registeredDatanodes;
  }

  @Override
  public String name() {
    return "enterStartupSafeMode";
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
    SafeModeState state = SafeModeVariables.readLocked(transaction);
    if (!state.startup() && registeredDatanodes == 0 && settings.thresholdsMet(0, totalBlocks, 0)) {
      return state;
    }
    SafeModeVariables.enterStartup(transaction.variables());
    transaction.variables().putLong(SafeModeVariables.TOTAL_BLOCKS, totalBlocks);
    transaction.variables().putLong(SafeModeVariables.SAFE_BLOCKS, 0);
    transaction.variables().putLong(SafeModeVariables.LIVE_DATANODES, 0);
    return new SafeModeState(state.manual(), true, 0, 0, totalBlocks, 0, state.futureBlocks(), state.futureBytes());
  }
}
