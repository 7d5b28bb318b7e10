package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.entity.SubtreeOperation;
import io.canopy.metadata.spi.WriteBuffer;
import java.util.List;
import java.util.Optional;

final class PgSubtreeOperationTable implements SubtreeOperationTable, BufferedTable {
  private final Jdbc jdbc;
  private final WriteBuffer<Long, SubtreeOperation> writes = new WriteBuffer<>("subtree_operations");

  PgSubtreeOperationTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<SubtreeOperation> all(int limit) throws StoreException {
    if (limit <= 0) {
      throw new IllegalArgumentException("subtree operations limit must be positive, got " + limit);
    }
    return jdbc.query("SELECT root_id, namenode_id, operation, path, started_ms FROM subtree_operations "
        + "ORDER BY root_id LIMIT ?", s -> s.setInt(1, limit),
        r -> new SubtreeOperation(r.getLong(1), r.getLong(2), r.getString(3), r.getString(4), r.getLong(5)));
  }

  @Override
  public Optional<SubtreeOperation> get(long rootId) throws StoreException {
    return jdbc.query("SELECT root_id, namenode_id, operation, path, started_ms FROM subtree_operations "
        + "WHERE root_id = ?", s -> s.setLong(1, rootId),
        r -> new SubtreeOperation(r.getLong(1), r.getLong(2), r.getString(3), r.getString(4), r.getLong(5)))
        .stream().findFirst();
  }

  @Override
  public void put(SubtreeOperation operation) {
    writes.put(operation.rootId(), operation);
  }

  @Override
  public void delete(long rootId) {
    writes.delete(rootId);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM subtree_operations WHERE root_id = ?", writes.deletes(), (s, id) -> s.setLong(1, id));
    jdbc.batch("INSERT INTO subtree_operations (root_id, namenode_id, operation, path, started_ms) "
        + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (root_id) DO UPDATE SET namenode_id = EXCLUDED.namenode_id, "
        + "operation = EXCLUDED.operation, path = EXCLUDED.path, started_ms = EXCLUDED.started_ms",
        writes.inserts(), (s, op) -> {
          s.setLong(1, op.rootId());
          s.setLong(2, op.namenodeId());
          s.setString(3, op.operation());
          s.setString(4, op.path());
          s.setLong(5, op.startedMs());
        });
    if (!writes.updates().isEmpty()) {
      throw new IllegalStateException("invariant: subtree operations are put or deleted, never updated");
    }
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }
}
