package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.NamenodeTable;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

final class PgNamenodeTable implements NamenodeTable, BufferedTable {
  private static final String COLUMNS = "n.id, n.counter, n.rpc_address, n.http_address, n.location_domain_id, "
      + "n.started_at_ms, n.last_round_ms";

  private final Jdbc jdbc;
  private final WriteBuffer<Long, NamenodeRecord> writes = new WriteBuffer<>("namenodes");

  PgNamenodeTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Optional<NamenodeRecord> get(long id, LockMode lock) throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM namenodes n WHERE n.id = ?"
        + Jdbc.lockClause(jdbc.effective(lock), "n"), s -> s.setLong(1, id), PgNamenodeTable::map)
        .stream().findFirst();
  }

  @Override
  public List<NamenodeRecord> all() throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM namenodes n ORDER BY n.id", s -> { }, PgNamenodeTable::map);
  }

  @Override
  public void insert(NamenodeRecord namenode) {
    writes.insert(namenode.id(), namenode);
  }

  @Override
  public void update(NamenodeRecord namenode) {
    writes.update(namenode.id(), namenode);
  }

  @Override
  public void delete(long id) {
    writes.delete(id);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM namenodes WHERE id = ?", writes.deletes(), (s, id) -> s.setLong(1, id));
    jdbc.batch("INSERT INTO namenodes (counter, rpc_address, http_address, location_domain_id, started_at_ms, "
        + "last_round_ms, id) VALUES (?, ?, ?, ?, ?, ?, ?)", writes.inserts(), PgNamenodeTable::bind);
    jdbc.batch("UPDATE namenodes SET counter = ?, rpc_address = ?, http_address = ?, location_domain_id = ?, "
        + "started_at_ms = ?, last_round_ms = ? WHERE id = ?", writes.updates(), PgNamenodeTable::bind);
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  /** Every column with the id last, the order both the insert and the update use. */
  private static void bind(Params s, NamenodeRecord n) throws SQLException {
    s.setLong(1, n.counter());
    s.setString(2, n.rpcAddress());
    s.setString(3, n.httpAddress());
    s.setInt(4, n.locationDomainId());
    s.setLong(5, n.startedAtMs());
    s.setLong(6, n.lastRoundMs());
    s.setLong(7, n.id());
  }

  private static NamenodeRecord map(ResultSet r) throws SQLException {
    return new NamenodeRecord(r.getLong(1), r.getLong(2), r.getString(3), r.getString(4), r.getInt(5),
        r.getLong(6), r.getLong(7));
  }
}
