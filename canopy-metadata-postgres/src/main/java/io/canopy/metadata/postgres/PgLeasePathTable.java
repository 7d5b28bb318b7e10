package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.LeasePathTable;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.List;

final class PgLeasePathTable implements LeasePathTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<LeasePath, LeasePath> writes = new WriteBuffer<>("lease_paths");

  PgLeasePathTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<LeasePath> ofHolder(String holder) throws StoreException {
    return jdbc.query("SELECT holder, inode_id FROM lease_paths WHERE holder = ?", s -> s.setString(1, holder),
        r -> new LeasePath(r.getString(1), r.getLong(2)));
  }

  @Override
  public List<LeasePath> ofHolder(String holder, long afterInodeId, int limit) throws StoreException {
    return jdbc.query("SELECT holder, inode_id FROM lease_paths WHERE holder = ? AND inode_id > ? "
        + "ORDER BY inode_id LIMIT ?", s -> {
          s.setString(1, holder);
          s.setLong(2, afterInodeId);
          s.setInt(3, limit);
        }, r -> new LeasePath(r.getString(1), r.getLong(2)));
  }

  @Override
  public void insert(LeasePath leasePath) {
    writes.insert(leasePath, leasePath);
  }

  @Override
  public void delete(LeasePath leasePath) {
    writes.delete(leasePath);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM lease_paths WHERE holder = ? AND inode_id = ?", writes.deletes(), (s, path) -> {
      s.setString(1, path.holder());
      s.setLong(2, path.inodeId());
    });
    jdbc.batch("INSERT INTO lease_paths (holder, inode_id) VALUES (?, ?)", writes.inserts(), (s, path) -> {
      s.setString(1, path.holder());
      s.setLong(2, path.inodeId());
    });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}
