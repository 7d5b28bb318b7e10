package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.RetryCacheTable;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

final class PgRetryCacheTable implements RetryCacheTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<RetryKey, RetryEntry> writes = new WriteBuffer<>("retry_cache");

  PgRetryCacheTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<RetryEntry> getPart(RetryKey key) {
    return new Jdbc.Part<>("SELECT client_id, call_id, operation, result, expires_at_ms FROM retry_cache "
        + "WHERE client_id = ? AND call_id = ?", s -> {
          s.setString(1, key.clientId());
          s.setInt(2, key.callId());
        }, PgRetryCacheTable::map);
  }

  @Override
  public Optional<RetryEntry> get(RetryKey key) throws StoreException {
    return jdbc.run(getPart(key)).stream().findFirst();
  }

  @Override
  public void insert(RetryEntry entry) {
    writes.insert(entry.key(), entry);
  }

  @Override
  public void flush() {
    jdbc.batch("INSERT INTO retry_cache (client_id, call_id, operation, result, expires_at_ms) "
        + "VALUES (?, ?, ?, ?, ?)", writes.inserts(), (s, e) -> {
          s.setString(1, e.key().clientId());
          s.setInt(2, e.key().callId());
          s.setString(3, e.operation());
          s.setBytes(4, e.result());
          s.setLong(5, e.expiresAtMs());
        });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static RetryEntry map(ResultSet r) throws SQLException {
    return new RetryEntry(new RetryKey(r.getString(1), r.getInt(2)), r.getString(3), r.getBytes(4), r.getLong(5));
  }
}
