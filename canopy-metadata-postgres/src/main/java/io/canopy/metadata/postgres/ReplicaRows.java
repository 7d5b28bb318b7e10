package io.canopy.metadata.postgres;

import io.canopy.metadata.entity.ReplicaKey;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Writes of the replica tables, whose rows are (inode_id, block_id, storage_id, a smallint, a bigint) keyed by their
 * first three columns: the rows of one block in one statement.
 */
final class ReplicaRows {
  /** How to take the five values of a row of {@code R}, in column order. */
  record Values<R>(ToLongFunction<R> inodeId, ToLongFunction<R> blockId, Function<R, String> storageId,
      Function<R, Short> fourth, ToLongFunction<R> fifth) {
  }

  private ReplicaRows() {
  }

  /**
   * Queues the inserts of {@code rows} into {@code table} ({@code columns} in the order {@link Values} gives them),
   * each followed by {@code conflict} (empty or an ON CONFLICT clause): a lone row as VALUES, several (a new block's
   * pipeline) in statements of up to {@link Jdbc#MAX_ARRAY_ROWS} rows bound as arrays.
   */
  static <R> void insert(Jdbc jdbc, String table, String columns, String conflict, List<R> rows, Values<R> values) {
    if (rows.size() == 1) {
      jdbc.batch("INSERT INTO " + table + " (" + columns + ") VALUES (?, ?, ?, ?, ?)" + conflict, rows, (s, r) -> {
        s.setLong(1, values.inodeId().applyAsLong(r));
        s.setLong(2, values.blockId().applyAsLong(r));
        s.setString(3, values.storageId().apply(r));
        s.setShort(4, values.fourth().apply(r));
        s.setLong(5, values.fifth().applyAsLong(r));
      });
      return;
    }
    jdbc.batch("INSERT INTO " + table + " (" + columns + ") SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], "
        + "?::smallint[], ?::bigint[])" + conflict, Jdbc.chunks(rows), (s, chunk) -> {
          Connection connection = s.getConnection();
          s.setArray(1, connection.createArrayOf("bigint", Jdbc.longs(chunk, values.inodeId())));
          s.setArray(2, connection.createArrayOf("bigint", Jdbc.longs(chunk, values.blockId())));
          s.setArray(3, connection.createArrayOf("text", chunk.stream().map(values.storageId()).toArray()));
          s.setArray(4, connection.createArrayOf("smallint", chunk.stream().map(values.fourth()).toArray()));
          s.setArray(5, connection.createArrayOf("bigint", Jdbc.longs(chunk, values.fifth())));
        });
  }

  /**
   * Queues the deletes of {@code keys} from {@code table}: a block's rows in one statement (the datanodes of its
   * pipeline, the replicas of a deleted file's block), a lone row in the single-row statement. Both are lookups of
   * the primary key (inode_id, block_id, storage_id), whatever the plan.
   */
  static void delete(Jdbc jdbc, String table, List<ReplicaKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    Map<List<Long>, List<ReplicaKey>> byBlock = new LinkedHashMap<>();
    for (ReplicaKey key : keys) {
      byBlock.computeIfAbsent(List.of(key.inodeId(), key.blockId()), b -> new ArrayList<>()).add(key);
    }
    List<ReplicaKey> lone = new ArrayList<>();
    List<List<ReplicaKey>> blocks = new ArrayList<>();
    for (List<ReplicaKey> ofBlock : byBlock.values()) {
      if (ofBlock.size() == 1) {
        lone.add(ofBlock.get(0));
      } else {
        blocks.addAll(Jdbc.chunks(ofBlock));
      }
    }
    jdbc.batch("DELETE FROM " + table + " WHERE inode_id = ? AND block_id = ? AND storage_id = ?", lone,
        (s, key) -> {
          s.setLong(1, key.inodeId());
          s.setLong(2, key.blockId());
          s.setString(3, key.storageId());
        });
    jdbc.batch("DELETE FROM " + table + " WHERE inode_id = ? AND block_id = ? AND storage_id = ANY(?)", blocks,
        (s, ofBlock) -> {
          s.setLong(1, ofBlock.get(0).inodeId());
          s.setLong(2, ofBlock.get(0).blockId());
          s.setArray(3, s.getConnection().createArrayOf("text",
              ofBlock.stream().map(ReplicaKey::storageId).toArray()));
        });
  }
}
