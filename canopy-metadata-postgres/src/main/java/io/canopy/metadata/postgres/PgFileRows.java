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
 * A read that follows a path's unlocked key reads joins their statement instead ({@link PgInodeTable.KeyReads}).
 */
final class PgFileRows {
  private static final int BLOCK = 0;
  private static final int REPLICA = 1;
  private static final int UC_REPLICA = 2;
  private static final String SQL = branches("");
  /** Columns of a file row: the table tag, then eight values (see {@link #branches}). */
  static final int COLUMNS = 9;
  /** A file row's columns as typed NULLs, for a union whose other rows are not file rows. */
  static final String NULL_COLUMNS = "NULL::smallint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, "
      + "NULL::smallint, NULL::bigint, NULL::bigint, NULL::text";

  /**
   * The three scans of inode ? (one parameter each), every row starting with {@code prefix} (columns of a union
   * this statement joins, or nothing), then its table tag and eight values.
   */
  static String branches(String prefix) {
    return "SELECT " + prefix + "0::smallint, block_id, block_index::bigint, num_bytes, generation_stamp, state, "
        + "recovery_id, truncate_length, NULL::text FROM blocks WHERE inode_id = ? "
        + "UNION ALL SELECT " + prefix + "1::smallint, block_id, corrupt_reason::bigint, corrupt_generation_stamp, "
        + "0::bigint, 0::smallint, 0::bigint, 0::bigint, storage_id FROM replicas WHERE inode_id = ? "
        + "UNION ALL SELECT " + prefix + "2::smallint, block_id, state::bigint, generation_stamp, 0::bigint, "
        + "0::smallint, 0::bigint, 0::bigint, storage_id FROM uc_replicas WHERE inode_id = ?";
  }

  private PgFileRows() {
  }

  /** One row of the union: a {@link Block}, a {@link Replica} or a {@link UcReplica}. */
  static Jdbc.Part<Object> part(long inodeId) {
    return new Jdbc.Part<>(SQL, s -> bind(s, 0, inodeId), r -> map(inodeId, r, 0));
  }

  /** Binds the three scans' inode parameters, the first at {@code offset + 1}. */
  static void bind(Params s, int offset, long inodeId) throws SQLException {
    s.setLong(offset + 1, inodeId);
    s.setLong(offset + 2, inodeId);
    s.setLong(offset + 3, inodeId);
  }

  /** The file row whose tag is in column {@code offset + 1}. */
  static Object map(long inodeId, ResultSet r, int offset) throws SQLException {
    int table = r.getShort(offset + 1);
    long blockId = r.getLong(offset + 2);
    return switch (table) {
      case BLOCK -> new Block(inodeId, blockId, (int) r.getLong(offset + 3), r.getLong(offset + 4),
          r.getLong(offset + 5), BlockState.fromCode(r.getShort(offset + 6)), r.getLong(offset + 7),
          r.getLong(offset + 8));
      case REPLICA -> new Replica(inodeId, blockId, r.getString(offset + 9),
          CorruptReason.fromCode((int) r.getLong(offset + 3)), r.getLong(offset + 4));
      case UC_REPLICA -> new UcReplica(inodeId, blockId, r.getString(offset + 9),
          UcReplicaState.fromCode((int) r.getLong(offset + 3)), r.getLong(offset + 4));
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
