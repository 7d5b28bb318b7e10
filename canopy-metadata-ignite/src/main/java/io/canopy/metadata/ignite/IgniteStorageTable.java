package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.StorageTable;
import io.canopy.metadata.entity.StorageRecord;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_STORAGES}: a datanode's volumes, colocated by datanode. */
final class IgniteStorageTable implements StorageTable {
  private record Key(String datanodeUuid, String storageId) {
  }

  private static final IgniteRows.Mapping<Key, StorageRecord> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Key key) {
      return Tuple.create(2).set("DATANODE_UUID", key.datanodeUuid()).set("STORAGE_ID", key.storageId());
    }

    @Override
    public Tuple row(StorageRecord s) {
      return key(keyOf(s)).set("STORAGE_TYPE", s.storageType()).set("FAILED", s.failed())
          .set("CAPACITY", s.capacity()).set("DFS_USED", s.dfsUsed()).set("REMAINING", s.remaining())
          .set("BLOCK_POOL_USED", s.blockPoolUsed());
    }

    @Override
    public StorageRecord read(Tuple r) {
      return new StorageRecord(r.stringValue("DATANODE_UUID"), r.stringValue("STORAGE_ID"),
          r.stringValue("STORAGE_TYPE"), r.booleanValue("FAILED"), r.longValue("CAPACITY"), r.longValue("DFS_USED"),
          r.longValue("REMAINING"), r.longValue("BLOCK_POOL_USED"));
    }

    @Override
    public Key keyOf(StorageRecord s) {
      return new Key(s.datanodeUuid(), s.storageId());
    }
  };
  private static final String INDEX = IgniteSchema.STORAGES + "_PK";

  private final IgniteRows<Key, StorageRecord> rows;

  IgniteStorageTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.STORAGES, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<StorageRecord> ofDatanode(String datanodeUuid) throws StoreException {
    return rows.scan(INDEX, "WHERE DATANODE_UUID = ? ORDER BY STORAGE_ID", LockMode.NONE, datanodeUuid);
  }

  @Override
  public List<StorageRecord> all() throws StoreException {
    return rows.scan(INDEX, "ORDER BY DATANODE_UUID, STORAGE_ID", LockMode.NONE);
  }

  @Override
  public void insert(StorageRecord storage) {
    rows.insert(MAPPING.keyOf(storage), storage);
  }

  @Override
  public void update(StorageRecord storage) {
    rows.update(MAPPING.keyOf(storage), storage);
  }

  @Override
  public void delete(String datanodeUuid, String storageId) {
    rows.delete(new Key(datanodeUuid, storageId));
  }
}
