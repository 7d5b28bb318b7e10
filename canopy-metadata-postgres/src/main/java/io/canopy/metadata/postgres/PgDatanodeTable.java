package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.DatanodeTable;
import io.canopy.metadata.entity.DatanodeRecord;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

final class PgDatanodeTable implements DatanodeTable, BufferedTable {
  private static final String COLUMNS = "d.uuid, d.host_name, d.ip_address, d.transfer_port, d.info_port, "
      + "d.info_secure_port, d.ipc_port, d.network_location, d.software_version, d.last_heartbeat_ms, d.capacity, "
      + "d.dfs_used, d.remaining, d.block_pool_used, d.non_dfs_used, d.transceiver_count, d.registered_at_ms, "
      + "d.declared_dead_at_ms";

  private final Jdbc jdbc;
  private final WriteBuffer<String, DatanodeRecord> writes = new WriteBuffer<>("datanodes");

  PgDatanodeTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Optional<DatanodeRecord> get(String uuid, LockMode lock) throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM datanodes d WHERE d.uuid = ?" + Jdbc.lockClause(jdbc.effective(lock), "d"),
        s -> s.setString(1, uuid), PgDatanodeTable::map).stream().findFirst();
  }

  @Override
  public List<DatanodeRecord> all() throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM datanodes d ORDER BY d.uuid", s -> { }, PgDatanodeTable::map);
  }

  @Override
  public void insert(DatanodeRecord datanode) {
    writes.insert(datanode.uuid(), datanode);
  }

  @Override
  public void update(DatanodeRecord datanode) {
    writes.update(datanode.uuid(), datanode);
  }

  @Override
  public void delete(String uuid) {
    writes.delete(uuid);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM datanodes WHERE uuid = ?", writes.deletes(), (s, uuid) -> s.setString(1, uuid));
    jdbc.batch("INSERT INTO datanodes (host_name, ip_address, transfer_port, info_port, info_secure_port, ipc_port, "
        + "network_location, software_version, last_heartbeat_ms, capacity, dfs_used, remaining, block_pool_used, "
        + "non_dfs_used, transceiver_count, registered_at_ms, declared_dead_at_ms, uuid) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO UPDATE SET "
        + "host_name = EXCLUDED.host_name, ip_address = EXCLUDED.ip_address, transfer_port = EXCLUDED.transfer_port, "
        + "info_port = EXCLUDED.info_port, info_secure_port = EXCLUDED.info_secure_port, "
        + "ipc_port = EXCLUDED.ipc_port, network_location = EXCLUDED.network_location, "
        + "software_version = EXCLUDED.software_version, last_heartbeat_ms = EXCLUDED.last_heartbeat_ms, "
        + "capacity = EXCLUDED.capacity, dfs_used = EXCLUDED.dfs_used, remaining = EXCLUDED.remaining, "
        + "block_pool_used = EXCLUDED.block_pool_used, non_dfs_used = EXCLUDED.non_dfs_used, "
        + "transceiver_count = EXCLUDED.transceiver_count, registered_at_ms = EXCLUDED.registered_at_ms, "
        + "declared_dead_at_ms = EXCLUDED.declared_dead_at_ms",
        writes.inserts(), PgDatanodeTable::bind);
    jdbc.batch("UPDATE datanodes SET host_name = ?, ip_address = ?, transfer_port = ?, info_port = ?, "
        + "info_secure_port = ?, ipc_port = ?, network_location = ?, software_version = ?, last_heartbeat_ms = ?, "
        + "capacity = ?, dfs_used = ?, remaining = ?, block_pool_used = ?, non_dfs_used = ?, transceiver_count = ?, "
        + "registered_at_ms = ?, declared_dead_at_ms = ? WHERE uuid = ?", writes.updates(), PgDatanodeTable::bind);
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  /** Binds every column with the uuid last, the order both the insert and the update use. */
  private static void bind(Params s, DatanodeRecord d) throws SQLException {
    s.setString(1, d.hostName());
    s.setString(2, d.ipAddress());
    s.setInt(3, d.transferPort());
    s.setInt(4, d.infoPort());
    s.setInt(5, d.infoSecurePort());
    s.setInt(6, d.ipcPort());
    s.setString(7, d.networkLocation());
    s.setString(8, d.softwareVersion());
    s.setLong(9, d.lastHeartbeatMs());
    s.setLong(10, d.capacity());
    s.setLong(11, d.dfsUsed());
    s.setLong(12, d.remaining());
    s.setLong(13, d.blockPoolUsed());
    s.setLong(14, d.nonDfsUsed());
    s.setInt(15, d.transceiverCount());
    s.setLong(16, d.registeredAtMs());
    s.setLong(17, d.declaredDeadAtMs());
    s.setString(18, d.uuid());
  }

  private static DatanodeRecord map(ResultSet r) throws SQLException {
    return new DatanodeRecord(r.getString(1), r.getString(2), r.getString(3), r.getInt(4), r.getInt(5), r.getInt(6),
        r.getInt(7), r.getString(8), r.getString(9), r.getLong(10), r.getLong(11), r.getLong(12), r.getLong(13),
        r.getLong(14), r.getLong(15), r.getInt(16), r.getLong(17), r.getLong(18));
  }
}
