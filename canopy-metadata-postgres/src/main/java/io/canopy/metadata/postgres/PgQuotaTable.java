package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.QuotaTable;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

final class PgQuotaTable implements QuotaTable, BufferedTable {
  private static final String COLUMNS = "q.inode_id, q.namespace_quota, q.storage_space_quota, q.namespace_used, "
      + "q.storage_space_used";

  private final Jdbc jdbc;
  private final WriteBuffer<Long, DirectoryQuota> writes = new WriteBuffer<>("directory_quotas");

  PgQuotaTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<DirectoryQuota> getPart(long inodeId, LockMode lock) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM directory_quotas q WHERE q.inode_id = ?"
        + Jdbc.lockClause(lock, "q"), s -> s.setLong(1, inodeId), PgQuotaTable::map);
  }

  static Jdbc.Part<Boolean> anyPart() {
    return new Jdbc.Part<>("SELECT EXISTS (SELECT 1 FROM directory_quotas)", s -> { }, r -> r.getBoolean(1));
  }

  @Override
  public Optional<DirectoryQuota> get(long inodeId, LockMode lock) throws StoreException {
    return jdbc.run(getPart(inodeId, jdbc.effective(lock))).stream().findFirst();
  }

  @Override
  public boolean any() throws StoreException {
    return jdbc.run(anyPart()).get(0);
  }

  @Override
  public List<DirectoryQuota> page(long afterInodeId, int limit) throws StoreException {
    if (limit <= 0) {
      throw new IllegalArgumentException("page limit must be positive, got " + limit);
    }
    return jdbc.query("SELECT " + COLUMNS + " FROM directory_quotas q WHERE q.inode_id > ? ORDER BY q.inode_id "
        + "LIMIT ?", s -> {
          s.setLong(1, afterInodeId);
          s.setInt(2, limit);
        }, PgQuotaTable::map);
  }

  @Override
  public void insert(DirectoryQuota quota) {
    writes.insert(quota.inodeId(), quota);
  }

  @Override
  public void update(DirectoryQuota quota) {
    writes.update(quota.inodeId(), quota);
  }

  @Override
  public void delete(long inodeId) {
    writes.delete(inodeId);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM directory_quotas WHERE inode_id = ?", writes.deletes(), (s, id) -> s.setLong(1, id));
    jdbc.batch("INSERT INTO directory_quotas (inode_id, namespace_quota, storage_space_quota, namespace_used, "
        + "storage_space_used) VALUES (?, ?, ?, ?, ?)", writes.inserts(), (s, q) -> {
          s.setLong(1, q.inodeId());
          s.setLong(2, q.namespaceQuota());
          s.setLong(3, q.storageSpaceQuota());
          s.setLong(4, q.namespaceUsed());
          s.setLong(5, q.storageSpaceUsed());
        });
    jdbc.batch("UPDATE directory_quotas SET namespace_quota = ?, storage_space_quota = ?, namespace_used = ?, "
        + "storage_space_used = ? WHERE inode_id = ?", writes.updates(), (s, q) -> {
          s.setLong(1, q.namespaceQuota());
          s.setLong(2, q.storageSpaceQuota());
          s.setLong(3, q.namespaceUsed());
          s.setLong(4, q.storageSpaceUsed());
          s.setLong(5, q.inodeId());
        });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static DirectoryQuota map(ResultSet r) throws SQLException {
    return new DirectoryQuota(r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5));
  }
}
