package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.QuotaTable;
import io.canopy.metadata.entity.DirectoryQuota;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_DIRECTORY_QUOTAS}: quotas and usage of directories, keyed by inode id. */
final class IgniteQuotaTable implements QuotaTable {
  private static final IgniteRows.Mapping<Long, DirectoryQuota> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long inodeId) {
      return Tuple.create(1).set("INODE_ID", inodeId);
    }

    @Override
    public Tuple row(DirectoryQuota q) {
      return key(q.inodeId()).set("NAMESPACE_QUOTA", q.namespaceQuota())
          .set("STORAGE_SPACE_QUOTA", q.storageSpaceQuota()).set("NAMESPACE_USED", q.namespaceUsed())
          .set("STORAGE_SPACE_USED", q.storageSpaceUsed());
    }

    @Override
    public DirectoryQuota read(Tuple r) {
      return new DirectoryQuota(r.longValue("INODE_ID"), r.longValue("NAMESPACE_QUOTA"),
          r.longValue("STORAGE_SPACE_QUOTA"), r.longValue("NAMESPACE_USED"), r.longValue("STORAGE_SPACE_USED"));
    }

    @Override
    public Long keyOf(DirectoryQuota q) {
      return q.inodeId();
    }
  };
  private static final String INDEX = IgniteSchema.QUOTAS + "_PK";

  private final IgniteRows<Long, DirectoryQuota> rows;

  IgniteQuotaTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.QUOTAS, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Optional<DirectoryQuota> get(long inodeId, LockMode lock) throws StoreException {
    return rows.get(inodeId, lock);
  }

  @Override
  public boolean any() throws StoreException {
    return !rows.scanOfInodes(INDEX, "LIMIT 1", LockMode.NONE).isEmpty();
  }

  @Override
  public List<DirectoryQuota> page(long afterInodeId, int limit) throws StoreException {
    return rows.scan(INDEX, "WHERE INODE_ID > ? ORDER BY INODE_ID LIMIT ?", LockMode.NONE, afterInodeId, limit);
  }

  @Override
  public void insert(DirectoryQuota quota) {
    rows.insert(quota.inodeId(), quota);
  }

  @Override
  public void update(DirectoryQuota quota) {
    rows.update(quota.inodeId(), quota);
  }

  @Override
  public void delete(long inodeId) {
    rows.delete(inodeId);
  }
}
