package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/** registerDatanode: records (or refreshes) a datanode's addresses; it is live from now on. */
public final class RegisterDatanodeOp implements Operation<DatanodeRecord> {
  private final DatanodeRecord record;

  public RegisterDatanodeOp(DatanodeRecord record) {
    this.record = record;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  @Override
  public String name() {
    return "registerDatanode";
  }

  @Override
  public LockRequest locks() {
    return LockRequest.none();
  }

  @Override
  public DatanodeRecord execute(TransactionContext context) throws IOException {
    Optional<DatanodeRecord> existing = context.cluster().datanodes().get(record.uuid(), LockMode.EXCLUSIVE);
    if (existing.isPresent()) {
      context.cluster().datanodes().update(record);
    } else {
      context.cluster().datanodes().insert(record);
    }
    return record;
  }
}
