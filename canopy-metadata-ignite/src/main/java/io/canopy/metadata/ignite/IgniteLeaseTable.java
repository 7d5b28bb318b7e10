package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.LeaseTable;
import io.canopy.metadata.entity.Lease;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_LEASES}: a client's write lease, keyed by holder. */
final class IgniteLeaseTable implements LeaseTable {
  static final IgniteRows.Mapping<String, Lease> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(String holder) {
      return Tuple.create(1).set("HOLDER", holder);
    }

    @Override
    public Tuple row(Lease lease) {
      return key(lease.holder()).set("LAST_RENEWED_MS", lease.lastRenewedMs());
    }

    @Override
    public Lease read(Tuple row) {
      return new Lease(row.stringValue("HOLDER"), row.longValue("LAST_RENEWED_MS"));
    }

    @Override
    public String keyOf(Lease lease) {
      return lease.holder();
    }
  };

  private final IgniteRows<String, Lease> rows;

  IgniteLeaseTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.LEASES, client, session, MAPPING, IgniteRows.OnExisting.REPLACE);
  }

  IgniteRows<String, Lease> rows() {
    return rows;
  }

  @Override
  public Optional<Lease> get(String holder, LockMode lock) throws StoreException {
    return rows.get(holder, lock);
  }

  @Override
  public List<Lease> renewedBefore(long renewedBeforeMs, Lease startAfter, int limit) throws StoreException {
    String index = IgniteSchema.LEASES + "_BY_RENEWAL";
    if (startAfter == null) {
      return rows.scan(index, "WHERE LAST_RENEWED_MS < ? ORDER BY LAST_RENEWED_MS, HOLDER LIMIT ?", LockMode.NONE,
          renewedBeforeMs, limit);
    }
    return rows.scan(index, "WHERE LAST_RENEWED_MS < ? AND (LAST_RENEWED_MS > ? OR LAST_RENEWED_MS = ? AND HOLDER > ?)"
        + " ORDER BY LAST_RENEWED_MS, HOLDER LIMIT ?", LockMode.NONE, renewedBeforeMs, startAfter.lastRenewedMs(),
        startAfter.lastRenewedMs(), startAfter.holder(), limit);
  }

  @Override
  public void put(Lease lease) {
    rows.put(lease.holder(), lease);
  }

  @Override
  public void delete(String holder) {
    rows.delete(holder);
  }
}
