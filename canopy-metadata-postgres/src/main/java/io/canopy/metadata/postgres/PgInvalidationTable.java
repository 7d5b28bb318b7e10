package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.InvalidationTable;
import io.canopy.metadata.entity.InvalidatedBlock;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;

final class PgInvalidationTable implements InvalidationTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<List<Object>, InvalidatedBlock> writes = new WriteBuffer<>("invalidated_blocks");

  PgInvalidationTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<InvalidatedBlock> ofDatanode(String datanodeUuid, int limit) throws StoreException {
    return jdbc.queryPlannedPerExecution("SELECT b.datanode_uuid, b.block_id, b.generation_stamp, b.num_bytes "
        + "FROM invalidated_blocks b WHERE b.datanode_uuid = ? ORDER BY b.block_id LIMIT ?"
        + Jdbc.lockClause(jdbc.effective(LockMode.EXCLUSIVE), "b"),
        s -> {
          s.setString(1, datanodeUuid);
          s.setInt(2, limit);
        }, r -> new InvalidatedBlock(r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4)));
  }

  @Override
  public List<InvalidatedBlock> ofBlock(long blockId, Collection<String> datanodeUuids) throws StoreException {
    if (datanodeUuids.isEmpty()) {
      return List.of();
    }
    String[] uuids = datanodeUuids.toArray(new String[0]);
    return jdbc.query("SELECT b.datanode_uuid, b.block_id, b.generation_stamp, b.num_bytes FROM invalidated_blocks b "
        + "WHERE b.datanode_uuid = ANY(?) AND b.block_id = ?", s -> {
          s.setArray(1, s.getConnection().createArrayOf("text", uuids));
          s.setLong(2, blockId);
        }, r -> new InvalidatedBlock(r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4)));
  }

  @Override
  public void insert(InvalidatedBlock block) {
    writes.insert(List.of(block.datanodeUuid(), block.blockId()), block);
  }

  @Override
  public void delete(InvalidatedBlock block) {
    writes.delete(List.of(block.datanodeUuid(), block.blockId()));
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM invalidated_blocks WHERE datanode_uuid = ? AND block_id = ?", writes.deletes(),
        (s, key) -> {
          s.setString(1, (String) key.get(0));
          s.setLong(2, (Long) key.get(1));
        });
    // The same replica may be scheduled for deletion twice (file deleted, then a report of the stale replica).
    List<InvalidatedBlock> inserts = writes.inserts();
    if (inserts.size() == 1) {
      jdbc.batch("INSERT INTO invalidated_blocks (datanode_uuid, block_id, generation_stamp, num_bytes) "
          + "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", inserts, (s, b) -> {
            s.setString(1, b.datanodeUuid());
            s.setLong(2, b.blockId());
            s.setLong(3, b.generationStamp());
            s.setLong(4, b.numBytes());
          });
    } else {
      // a deleted file's replicas: one statement
      jdbc.batch("INSERT INTO invalidated_blocks (datanode_uuid, block_id, generation_stamp, num_bytes) "
          + "SELECT * FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) ON CONFLICT DO NOTHING",
          Jdbc.chunks(inserts), (s, rows) -> {
            Connection connection = s.getConnection();
            s.setArray(1, connection.createArrayOf("text",
                rows.stream().map(InvalidatedBlock::datanodeUuid).toArray()));
            s.setArray(2, connection.createArrayOf("bigint", Jdbc.longs(rows, InvalidatedBlock::blockId)));
            s.setArray(3, connection.createArrayOf("bigint", Jdbc.longs(rows, InvalidatedBlock::generationStamp)));
            s.setArray(4, connection.createArrayOf("bigint", Jdbc.longs(rows, InvalidatedBlock::numBytes)));
          });
    }
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}
