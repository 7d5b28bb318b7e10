package io.canopy.namenode.datanode;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.tx.ClusterRead;
import io.canopy.namenode.tx.TransactionContext;
import java.io.IOException;
import java.util.Optional;

/** One datanode's row and storages as the database has them now (null when it never registered). */
final class DatanodeReadOp implements ClusterRead<DatanodeRegistry.Node> {
  private final String uuid;

  DatanodeReadOp(String uuid) {
    this.uuid = uuid;
  }

  @Override
  public String name() {
    return "readDatanode";
  }

  @Override
  public DatanodeRegistry.Node execute(TransactionContext context) throws IOException {
    Optional<DatanodeRecord> record = context.cluster().datanodes().get(uuid, LockMode.NONE);
    if (record.isEmpty()) {
      return null;
    }
    return new DatanodeRegistry.Node(record.get(), context.cluster().storages().ofDatanode(uuid));
  }
}
