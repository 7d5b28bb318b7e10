package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.NamenodeTable;
import io.canopy.metadata.entity.NamenodeRecord;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_NAMENODES}: the membership descriptors, keyed by namenode id. */
final class IgniteNamenodeTable implements NamenodeTable {
  private static final IgniteRows.Mapping<Long, NamenodeRecord> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long id) {
      return Tuple.create(1).set("ID", id);
    }

    @Override
    public Tuple row(NamenodeRecord n) {
      return key(n.id()).set("COUNTER", n.counter()).set("RPC_ADDRESS", n.rpcAddress())
          .set("HTTP_ADDRESS", n.httpAddress()).set("LOCATION_DOMAIN_ID", n.locationDomainId())
          .set("STARTED_AT_MS", n.startedAtMs()).set("LAST_ROUND_MS", n.lastRoundMs());
    }

    @Override
    public NamenodeRecord read(Tuple row) {
      return new NamenodeRecord(row.longValue("ID"), row.longValue("COUNTER"), row.stringValue("RPC_ADDRESS"),
          row.stringValue("HTTP_ADDRESS"), row.intValue("LOCATION_DOMAIN_ID"), row.longValue("STARTED_AT_MS"),
          row.longValue("LAST_ROUND_MS"));
    }

    @Override
    public Long keyOf(NamenodeRecord n) {
      return n.id();
    }
  };

  private final IgniteRows<Long, NamenodeRecord> rows;

  IgniteNamenodeTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.NAMENODES, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<Long, NamenodeRecord> rows() {
    return rows;
  }

  @Override
  public Optional<NamenodeRecord> get(long id, LockMode lock) throws StoreException {
    return rows.get(id, lock);
  }

  @Override
  public List<NamenodeRecord> all() throws StoreException {
    // Read whole by every election round, which holds the election row's lock (as every writer of this table does):
    // outside the round's transaction the scan waited for safe time with that lock held, and short rounds of
    // several namenodes kept failing on it (design 020)
    return rows.scanUnderHeldLock(IgniteSchema.NAMENODES + "_PK", "ORDER BY ID", LockMode.NONE);
  }

  @Override
  public void insert(NamenodeRecord namenode) {
    rows.insert(namenode.id(), namenode);
  }

  @Override
  public void update(NamenodeRecord namenode) {
    rows.update(namenode.id(), namenode);
  }

  @Override
  public void delete(long id) {
    rows.delete(id);
  }
}
