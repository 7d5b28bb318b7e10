package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.BlockLookupTable;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

final class PgBlockLookupTable implements BlockLookupTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<Long, long[]> writes = new WriteBuffer<>("block_lookup");

  PgBlockLookupTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Map<Long, Long> inodesOf(Collection<Long> blockIds) throws StoreException {
    Map<Long, Long> result = new HashMap<>();
    if (blockIds.isEmpty()) {
      return result;
    }
    Long[] ids = blockIds.toArray(new Long[0]);
    List<long[]> rows = jdbc.query("SELECT block_id, inode_id FROM block_lookup WHERE block_id = ANY(?)",
        s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids)),
        r -> new long[] {r.getLong(1), r.getLong(2)});
    rows.forEach(row -> result.put(row[0], row[1]));
    return result;
  }

  @Override
  public void insert(long blockId, long inodeId) {
    writes.insert(blockId, new long[] {blockId, inodeId});
  }

  @Override
  public void delete(long blockId) {
    writes.delete(blockId);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM block_lookup WHERE block_id = ?", writes.deletes(), (s, id) -> s.setLong(1, id));
    jdbc.batch("INSERT INTO block_lookup (block_id, inode_id) VALUES (?, ?)", writes.inserts(), (s, row) -> {
      s.setLong(1, row[0]);
      s.setLong(2, row[1]);
    });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}
