package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.DatanodeTable;
import io.canopy.metadata.entity.DatanodeRecord;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_DATANODES}: registered datanodes, keyed by uuid; a registration replaces the row. */
final class IgniteDatanodeTable implements DatanodeTable {
  private static final IgniteRows.Mapping<String, DatanodeRecord> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(String uuid) {
      return Tuple.create(1).set("DATANODE_UUID", uuid);
    }

    @Override
    public Tuple row(DatanodeRecord d) {
      return key(d.uuid()).set("HOST_NAME", d.hostName()).set("IP_ADDRESS", d.ipAddress())
          .set("TRANSFER_PORT", d.transferPort()).set("INFO_PORT", d.infoPort())
          .set("INFO_SECURE_PORT", d.infoSecurePort()).set("IPC_PORT", d.ipcPort())
          .set("NETWORK_LOCATION", d.networkLocation()).set("SOFTWARE_VERSION", d.softwareVersion())
          .set("LAST_HEARTBEAT_MS", d.lastHeartbeatMs()).set("CAPACITY", d.capacity()).set("DFS_USED", d.dfsUsed())
          .set("REMAINING", d.remaining()).set("BLOCK_POOL_USED", d.blockPoolUsed())
          .set("NON_DFS_USED", d.nonDfsUsed()).set("TRANSCEIVER_COUNT", d.transceiverCount())
          .set("REGISTERED_AT_MS", d.registeredAtMs()).set("DECLARED_DEAD_AT_MS", d.declaredDeadAtMs());
    }

    @Override
    public DatanodeRecord read(Tuple r) {
      return new DatanodeRecord(r.stringValue("DATANODE_UUID"), r.stringValue("HOST_NAME"), r.stringValue("IP_ADDRESS"),
          r.intValue("TRANSFER_PORT"), r.intValue("INFO_PORT"), r.intValue("INFO_SECURE_PORT"), r.intValue("IPC_PORT"),
          r.stringValue("NETWORK_LOCATION"), r.stringValue("SOFTWARE_VERSION"), r.longValue("LAST_HEARTBEAT_MS"),
          r.longValue("CAPACITY"), r.longValue("DFS_USED"), r.longValue("REMAINING"), r.longValue("BLOCK_POOL_USED"),
          r.longValue("NON_DFS_USED"), r.intValue("TRANSCEIVER_COUNT"), r.longValue("REGISTERED_AT_MS"),
          r.longValue("DECLARED_DEAD_AT_MS"));
    }

    @Override
    public String keyOf(DatanodeRecord d) {
      return d.uuid();
    }
  };

  private final IgniteRows<String, DatanodeRecord> rows;

  IgniteDatanodeTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.DATANODES, client, session, MAPPING, IgniteRows.OnExisting.REPLACE);
  }

  IgniteRows<String, DatanodeRecord> rows() {
    return rows;
  }

  @Override
  public Optional<DatanodeRecord> get(String uuid, LockMode lock) throws StoreException {
    return rows.get(uuid, lock);
  }

  @Override
  public List<DatanodeRecord> all() throws StoreException {
    return rows.scan(IgniteSchema.DATANODES + "_PK", "ORDER BY DATANODE_UUID", LockMode.NONE);
  }

  @Override
  public void insert(DatanodeRecord datanode) {
    rows.insert(datanode.uuid(), datanode);
  }

  @Override
  public void update(DatanodeRecord datanode) {
    rows.update(datanode.uuid(), datanode);
  }

  @Override
  public void delete(String uuid) {
    rows.delete(uuid);
  }
}
