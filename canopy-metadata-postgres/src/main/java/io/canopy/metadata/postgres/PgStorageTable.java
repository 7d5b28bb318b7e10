package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.entity.StorageRecord;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

final class PgStorageTable implements StorageTable, BufferedTable {
  private static final String COLUMNS = "storage_type, failed, capacity, dfs_used, remaining, block_pool_used, "
      + "datanode_uuid, storage_id";

  private final Jdbc jdbc;
  private final WriteBuffer<List<String>, StorageRecord> writes = new WriteBuffer<>("storages");

  PgStorageTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<StorageRecord> ofDatanode(String datanodeUuid) throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM storages WHERE datanode_uuid = ? ORDER BY storage_id",
        s -> s.setString(1, datanodeUuid), PgStorageTable::map);
  }

  @Override
  public List<StorageRecord> all() throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM storages ORDER BY datanode_uuid, storage_id", s -> { },
        PgStorageTable::map);
  }

  @Override
  public void insert(StorageRecord storage) {
    writes.insert(List.of(storage.datanodeUuid(), storage.storageId()), storage);
  }

  @Override
  public void update(StorageRecord storage) {
    writes.update(List.of(storage.datanodeUuid(), storage.storageId()), storage);
  }

  @Override
  public void delete(String datanodeUuid, String storageId) {
    writes.delete(List.of(datanodeUuid, storageId));
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM storages WHERE datanode_uuid = ? AND storage_id = ?", writes.deletes(), (s, key) -> {
      s.setString(1, key.get(0));
      s.setString(2, key.get(1));
    });
    jdbc.batch("INSERT INTO storages (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)", writes.inserts(),
        PgStorageTable::bind);
    jdbc.batch("UPDATE storages SET storage_type = ?, failed = ?, capacity = ?, dfs_used = ?, remaining = ?, "
        + "block_pool_used = ? WHERE datanode_uuid = ? AND storage_id = ?", writes.updates(), PgStorageTable::bind);
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static void bind(Params s, StorageRecord r) throws SQLException {
    s.setString(1, r.storageType());
    s.setBoolean(2, r.failed());
    s.setLong(3, r.capacity());
    s.setLong(4, r.dfsUsed());
    s.setLong(5, r.remaining());
    s.setLong(6, r.blockPoolUsed());
    s.setString(7, r.datanodeUuid());
    s.setString(8, r.storageId());
  }

  private static StorageRecord map(ResultSet r) throws SQLException {
    return new StorageRecord(r.getString(7), r.getString(8), r.getString(1), r.getBoolean(2), r.getLong(3),
        r.getLong(4), r.getLong(5), r.getLong(6));
  }
}
