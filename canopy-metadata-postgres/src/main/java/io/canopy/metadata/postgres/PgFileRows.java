package io.canopy.metadata.postgres;

import io.canopy.metadata.dal.ReadBatch.FileRows;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A file's blocks, replicas and pipeline replicas read with one statement: three index scans under one executor
 * start, where three statements cost three (on this workload PostgreSQL's per-statement work, not the scans, is what
 * bounds throughput: docs/design/012-statements-per-operation.md). Each row carries its table in its first column.
 */
final class PgFileRows {
  private static final int BLOCK = 0;
  private static final int REPLICA = 1;
  private static final int UC_REPLICA = 2;
  private static final String SQL =
      "SELECT 0::smallint, block_id, block_index::bigint, num_bytes, generation_stamp, state, recovery_id, "
      + "truncate_length, NULL::text FROM blocks WHERE inode_id = ? "
      + "UNION ALL SELECT 1::smallint, block_id, corrupt_reason::bigint, corrupt_generation_stamp, 0::bigint, "
      + "0::smallint, 0::bigint, 0::bigint, storage_id FROM replicas WHERE inode_id = ? "
      + "UNION ALL SELECT 2::smallint, block_id, state::bigint, generation_stamp, 0::bigint, 0::smallint, 0::bigint, "
      + "0::bigint, storage_id FROM uc_replicas WHERE inode_id = ?";

  private PgFileRows() {
  }

  /** One row of the union: a {@link Block}, a {@link Replica} or a {@link UcReplica}. */
  static Jdbc.Part<Object> part(long inodeId) {
    return new Jdbc.Part<>(SQL, s -> {
      s.setLong(1, inodeId);
      s.setLong(2, inodeId);
      s.setLong(3, inodeId);
    }, r -> map(inodeId, r));
  }

  private static Object map(long inodeId, ResultSet r) throws SQLException {
    int table = r.getShort(1);
    long blockId = r.getLong(2);
    return switch (table) {
      case BLOCK -> new Block(inodeId, blockId, (int) r.getLong(3), r.getLong(4), r.getLong(5),
          BlockState.fromCode(r.getShort(6)), r.getLong(7), r.getLong(8));
      case REPLICA -> new Replica(inodeId, blockId, r.getString(9), CorruptReason.fromCode((int) r.getLong(3)),
          r.getLong(4));
      case UC_REPLICA -> new UcReplica(inodeId, blockId, r.getString(9), UcReplicaState.fromCode((int) r.getLong(3)),
          r.getLong(4));
      default -> throw new SQLException("file rows of inode " + inodeId + ": unknown table tag " + table);
    };
  }

  /** The rows split by table, blocks in index order. */
  static FileRows shape(List<Object> rows) {
    List<Block> blocks = new ArrayList<>();
    List<Replica> replicas = new ArrayList<>();
    List<UcReplica> ucReplicas = new ArrayList<>();
    for (Object row : rows) {
      if (row instanceof Block block) {
        blocks.add(block);
      } else if (row instanceof Replica replica) {
        replicas.add(replica);
      } else {
        ucReplicas.add((UcReplica) row);
      }
    }
    blocks.sort(Comparator.comparingInt(Block::index));
    return new FileRows(blocks, replicas, ucReplicas);
  }
}
