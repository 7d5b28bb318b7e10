package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.BlockLookupTable;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_BLOCK_LOOKUP}: which file a block on datanodes belongs to, keyed by block id. */
final class IgniteBlockLookupTable implements BlockLookupTable {
  private record Row(long blockId, long inodeId) {
  }

  private static final IgniteRows.Mapping<Long, Row> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long blockId) {
      return Tuple.create(1).set("BLOCK_ID", blockId);
    }

    @Override
    public Tuple row(Row row) {
      return key(row.blockId()).set("INODE_ID", row.inodeId());
    }

    @Override
    public Row read(Tuple r) {
      return new Row(r.longValue("BLOCK_ID"), r.longValue("INODE_ID"));
    }

    @Override
    public Long keyOf(Row row) {
      return row.blockId();
    }
  };

  private final IgniteRows<Long, Row> rows;

  IgniteBlockLookupTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.BLOCK_LOOKUP, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Map<Long, Long> inodesOf(Collection<Long> blockIds) throws StoreException {
    Map<Long, Long> inodes = new LinkedHashMap<>();
    rows.getAll(blockIds, LockMode.NONE).forEach((block, row) -> inodes.put(block, row.inodeId()));
    return inodes;
  }

  @Override
  public void insert(long blockId, long inodeId) {
    rows.insert(blockId, new Row(blockId, inodeId));
  }

  @Override
  public void delete(long blockId) {
    rows.delete(blockId);
  }
}
