package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

final class PgReplicationQueueTable implements ReplicationQueueTable, BufferedTable {
  private static final String COLUMNS = "inode_id, block_id, priority, not_before_ms";

  private final Jdbc jdbc;
  private final WriteBuffer<BlockKey, QueuedBlock> writes = new WriteBuffer<>("replication_queue");

  PgReplicationQueueTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<QueuedBlock> ofFile(long inodeId) throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM replication_queue WHERE inode_id = ? ORDER BY block_id",
        s -> s.setLong(1, inodeId), PgReplicationQueueTable::map);
  }

  @Override
  public List<QueuedBlock> page(QueuedBlock after, int limit) throws StoreException {
    if (limit <= 0) {
      throw new IllegalArgumentException("replication queue page limit must be positive, got " + limit);
    }
    if (after == null) {
      return jdbc.queryPlannedPerExecution("SELECT " + COLUMNS + " FROM replication_queue ORDER BY priority, inode_id, block_id LIMIT ?",
          s -> s.setInt(1, limit), PgReplicationQueueTable::map);
    }
    return jdbc.queryPlannedPerExecution("SELECT " + COLUMNS + " FROM replication_queue WHERE (priority, inode_id, "
        + "block_id) > (?, ?, ?) "
        + "ORDER BY priority, inode_id, block_id LIMIT ?", s -> {
          s.setInt(1, after.priority().code());
          s.setLong(2, after.inodeId());
          s.setLong(3, after.blockId());
          s.setInt(4, limit);
        }, PgReplicationQueueTable::map);
  }

  @Override
  public void put(QueuedBlock block) {
    writes.put(block.key(), block);
  }

  @Override
  public void delete(BlockKey key) {
    writes.delete(key);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM replication_queue WHERE inode_id = ? AND block_id = ?", writes.deletes(), (s, key) -> {
      s.setLong(1, key.inodeId());
      s.setLong(2, key.blockId());
    });
    // put: queuing a block that is queued already replaces its priority and time.
    jdbc.batch("INSERT INTO replication_queue (" + COLUMNS + ") VALUES (?, ?, ?, ?) ON CONFLICT (inode_id, block_id) "
        + "DO UPDATE SET priority = EXCLUDED.priority, not_before_ms = EXCLUDED.not_before_ms", writes.inserts(),
        (s, b) -> {
          s.setLong(1, b.inodeId());
          s.setLong(2, b.blockId());
          s.setInt(3, b.priority().code());
          s.setLong(4, b.notBeforeMs());
        });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static QueuedBlock map(ResultSet r) throws SQLException {
    return new QueuedBlock(r.getLong(1), r.getLong(2), ReplicationPriority.fromCode(r.getInt(3)), r.getLong(4));
  }
}
