package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.FutureBlockTable;
import io.canopy.metadata.entity.FutureBlock;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

final class PgFutureBlockTable implements FutureBlockTable, BufferedTable {
  private static final String COLUMNS = "block_id, generation_stamp, num_bytes, datanode_uuid, reported_at_ms";

  private final Jdbc jdbc;
  private final WriteBuffer<Long, FutureBlock> writes = new WriteBuffer<>("future_blocks");
  private boolean deleteAll;

  PgFutureBlockTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Map<Long, FutureBlock> get(Collection<Long> blockIds) throws StoreException {
    Map<Long, FutureBlock> result = new HashMap<>();
    if (blockIds.isEmpty()) {
      return result;
    }
    Long[] ids = blockIds.toArray(new Long[0]);
    List<FutureBlock> rows = jdbc.query("SELECT " + COLUMNS + " FROM future_blocks WHERE block_id = ANY(?)",
        s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids)),
        r -> new FutureBlock(r.getLong(1), r.getLong(2), r.getLong(3), r.getString(4), r.getLong(5)));
    rows.forEach(row -> result.put(row.blockId(), row));
    return result;
  }

  @Override
  public void insert(FutureBlock block) {
    writes.insert(block.blockId(), block);
  }

  @Override
  public void deleteAll() {
    writes.clear();
    deleteAll = true;
  }

  @Override
  public void flush() {
    if (deleteAll) {
      jdbc.batch("DELETE FROM future_blocks", List.of(Boolean.TRUE), (s, ignored) -> { });
    }
    jdbc.batch("INSERT INTO future_blocks (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        writes.inserts(), (s, b) -> {
          s.setLong(1, b.blockId());
          s.setLong(2, b.generationStamp());
          s.setLong(3, b.numBytes());
          s.setString(4, b.datanodeUuid());
          s.setLong(5, b.reportedAtMs());
        });
    clear();
  }

  @Override
  public void clear() {
    writes.clear();
    deleteAll = false;
  }
}
