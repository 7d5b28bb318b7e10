package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.RetryCacheTable;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_RETRY_CACHE}: results of committed non-idempotent calls, keyed by (client id, call id). */
final class IgniteRetryCacheTable implements RetryCacheTable {
  static final IgniteRows.Mapping<RetryKey, RetryEntry> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(RetryKey key) {
      return Tuple.create(2).set("CLIENT_ID", key.clientId()).set("CALL_ID", key.callId());
    }

    @Override
    public Tuple row(RetryEntry e) {
      return key(e.key()).set("OPERATION", e.operation()).set("RESULT_DATA", e.result())
          .set("EXPIRES_AT_MS", e.expiresAtMs());
    }

    @Override
    public RetryEntry read(Tuple r) {
      return new RetryEntry(new RetryKey(r.stringValue("CLIENT_ID"), r.intValue("CALL_ID")), r.stringValue("OPERATION"),
          r.bytesValue("RESULT_DATA"), r.longValue("EXPIRES_AT_MS"));
    }

    @Override
    public RetryKey keyOf(RetryEntry e) {
      return e.key();
    }
  };

  private final IgniteRows<RetryKey, RetryEntry> rows;

  IgniteRetryCacheTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.RETRY_CACHE, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Optional<RetryEntry> get(RetryKey key) throws StoreException {
    return rows.get(key, LockMode.NONE);
  }

  @Override
  public void insert(RetryEntry entry) {
    rows.insert(entry.key(), entry);
  }
}
