package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.LeaseTable;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.List;
import java.util.Optional;

final class PgLeaseTable implements LeaseTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<String, Lease> writes = new WriteBuffer<>("leases");

  PgLeaseTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<Lease> getPart(String holder, LockMode lock) {
    return new Jdbc.Part<>("SELECT l.holder, l.last_renewed_ms FROM leases l WHERE l.holder = ?"
        + Jdbc.lockClause(lock, "l"), s -> s.setString(1, holder), r -> new Lease(r.getString(1), r.getLong(2)));
  }

  @Override
  public Optional<Lease> get(String holder, LockMode lock) throws StoreException {
    return jdbc.run(getPart(holder, jdbc.effective(lock))).stream().findFirst();
  }

  @Override
  public List<Lease> renewedBefore(long renewedBeforeMs, Lease startAfter, int limit) throws StoreException {
    if (startAfter == null) {
      return jdbc.query("SELECT holder, last_renewed_ms FROM leases WHERE last_renewed_ms < ? "
          + "ORDER BY last_renewed_ms, holder LIMIT ?", s -> {
            s.setLong(1, renewedBeforeMs);
            s.setInt(2, limit);
          }, r -> new Lease(r.getString(1), r.getLong(2)));
    }
    return jdbc.query("SELECT holder, last_renewed_ms FROM leases WHERE last_renewed_ms < ? "
        + "AND (last_renewed_ms, holder) > (?, ?) ORDER BY last_renewed_ms, holder LIMIT ?", s -> {
          s.setLong(1, renewedBeforeMs);
          s.setLong(2, startAfter.lastRenewedMs());
          s.setString(3, startAfter.holder());
          s.setInt(4, limit);
        }, r -> new Lease(r.getString(1), r.getLong(2)));
  }

  @Override
  public void put(Lease lease) {
    writes.put(lease.holder(), lease);
  }

  @Override
  public void delete(String holder) {
    writes.delete(holder);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM leases WHERE holder = ?", writes.deletes(), (s, holder) -> s.setString(1, holder));
    jdbc.batch("INSERT INTO leases (holder, last_renewed_ms) VALUES (?, ?) ON CONFLICT (holder) "
        + "DO UPDATE SET last_renewed_ms = EXCLUDED.last_renewed_ms", writes.inserts(), (s, lease) -> {
      s.setString(1, lease.holder());
      s.setLong(2, lease.lastRenewedMs());
    });
    jdbc.batch("UPDATE leases SET last_renewed_ms = ? WHERE holder = ?", writes.updates(), (s, lease) -> {
      s.setLong(1, lease.lastRenewedMs());
      s.setString(2, lease.holder());
    });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}
