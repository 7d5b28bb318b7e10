package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.LeasePathTable;
import io.canopy.metadata.entity.LeasePath;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_LEASE_PATHS}: the files a holder keeps open, colocated by holder. */
final class IgniteLeasePathTable implements LeasePathTable {
  private static final IgniteRows.Mapping<LeasePath, LeasePath> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(LeasePath path) {
      return Tuple.create(2).set("HOLDER", path.holder()).set("INODE_ID", path.inodeId());
    }

    @Override
    public Tuple row(LeasePath path) {
      return key(path);
    }

    @Override
    public LeasePath read(Tuple row) {
      return new LeasePath(row.stringValue("HOLDER"), row.longValue("INODE_ID"));
    }

    @Override
    public LeasePath keyOf(LeasePath path) {
      return path;
    }
  };
  private static final String INDEX = IgniteSchema.LEASE_PATHS + "_PK";

  private final IgniteRows<LeasePath, LeasePath> rows;

  IgniteLeasePathTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.LEASE_PATHS, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<LeasePath, LeasePath> rows() {
    return rows;
  }

  @Override
  public List<LeasePath> ofHolder(String holder) throws StoreException {
    return rows.scan(INDEX, "WHERE HOLDER = ? ORDER BY INODE_ID", LockMode.NONE, holder);
  }

  @Override
  public List<LeasePath> ofHolder(String holder, long afterInodeId, int limit) throws StoreException {
    return rows.scan(INDEX, "WHERE HOLDER = ? AND INODE_ID > ? ORDER BY INODE_ID LIMIT ?", LockMode.NONE, holder,
        afterInodeId, limit);
  }

  @Override
  public void insert(LeasePath leasePath) {
    rows.insert(leasePath, leasePath);
  }

  @Override
  public void delete(LeasePath leasePath) {
    rows.delete(leasePath);
  }
}
