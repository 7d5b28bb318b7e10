package io.canopy.namenode.ops;

import io.canopy.namenode.safemode.SafeModeState;
import io.canopy.namenode.safemode.SafeModeVariables;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.ClusterTables;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * setSafeMode: reads or changes the cluster-wide safe mode ({@link SafeModeVariables}); answers the state afterwards.
 * As in HDFS: enter turns the manual safe mode on; leave turns off the manual one and the startup one, unless blocks
 * from the future hold it (then only forceExit does, accepting their loss); forceExit turns everything off. Each is
 * idempotent. Changing actions lock the startup flag first, so they serialize with the leader and with blocks from
 * the future turning safe mode on.
 */
public final class SafeModeOp implements Operation<SafeModeState> {
  private static final Logger LOG = LoggerFactory.getLogger(SafeModeOp.class);
  private final SafeModeAction action;

  public SafeModeOp(SafeModeAction action) {
    this.action = action;
  }

  @Override
  public String name() {
    return action == SafeModeAction.SAFEMODE_GET ? "getSafeMode" : "setSafeMode";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none(); // variables, no path
  }

  @Override
  public boolean readOnly() {
    return action == SafeModeAction.SAFEMODE_GET;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public SafeModeState execute(TransactionContext context) throws IOException {
    ClusterTables transaction = context.cluster();
    if (action == SafeModeAction.SAFEMODE_GET) {
      return SafeModeVariables.read(transaction);
    }
    SafeModeState state = SafeModeVariables.readLocked(transaction);
    switch (action) {
      case SAFEMODE_ENTER:
        transaction.variables().putLong(SafeModeVariables.MANUAL, 1);
        return state.withManual(true);
      case SAFEMODE_LEAVE:
        if (state.futureBlocks() > 0) { // as HDFS: nothing changes, the manual flag included
          LOG.error("Refusing to leave safe mode without a force flag. Exiting safe mode will cause a deletion of {} "
              + "byte(s). Please use -forceExit flag to exit safe mode forcefully if data loss is acceptable.",
              state.futureBytes());
          return state;
        }
        transaction.variables().putLong(SafeModeVariables.MANUAL, 0);
        SafeModeVariables.leaveStartup(transaction, false);
        return SafeModeState.OFF;
      case SAFEMODE_FORCE_EXIT:
        transaction.variables().putLong(SafeModeVariables.MANUAL, 0);
        if (state.futureBlocks() > 0) {
          LOG.warn("Leaving safe mode due to forceExit. This will cause a data loss of {} byte(s) in {} block(s).",
              state.futureBytes(), state.futureBlocks());
        }
        SafeModeVariables.leaveStartup(transaction, true);
        return SafeModeState.OFF;
      default:
        throw new UnsupportedOperationException("Safe mode action " + action + " is not supported");
    }
  }
}
