package io.canopy.namenode.ops;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.VariableTable;
import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;

/**
 * setSafeMode: reads or sets the cluster-wide manual safe mode ({@link SafeMode#VARIABLE}); answers whether safe
 * mode is on afterwards, as HDFS does. Entering and leaving are idempotent (they set the value).
 */
public final class SafeModeOp implements Operation<Boolean> {
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
    return LockRequest.none(); // one variable, no path
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
  public Boolean execute(TransactionContext context) throws IOException {
    VariableTable variables = context.cluster().variables();
    switch (action) {
      case SAFEMODE_GET:
        return variables.getLong(SafeMode.VARIABLE, LockMode.READ_COMMITTED).orElse(0) != 0;
      case SAFEMODE_ENTER:
        variables.putLong(SafeMode.VARIABLE, 1);
        return true;
      case SAFEMODE_LEAVE:
      case SAFEMODE_FORCE_EXIT: // no startup safe mode to force out of: the same as leaving
        variables.putLong(SafeMode.VARIABLE, 0);
        return false;
      default:
        throw new UnsupportedOperationException("Safe mode action " + action + " is not supported");
    }
  }
}
