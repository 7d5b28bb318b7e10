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
import java.util.Set;

/**
 * A file's blocks, replicas and pipeline replicas (and, when asked for, its database-resident bytes) read with one
 * statement: index scans under one executor start, where separate statements cost one each (on this workload
 * PostgreSQL's per-statement work, not the scans, is what bounds throughput:
 * docs/design/012-statements-per-operation.md). Each row carries its table in its first column.
 */
final class PgFileRows {
  private static final int BLOCK = 0;
  private static final int REPLICA = 1;
  private static final int UC_REPLICA = 2;
  private static final int SMALL_DATA = 3;
  private static final String ROWS =
      "SELECT 0::smallint, block_id, block_index::bigint, num_bytes, generation_stamp, state, recovery_id, "
      + "truncate_length, NULL::text%1$s FROM blocks WHERE inode_id = ? "
      + "UNION ALL SELECT 1::smallint, block_id, corrupt_reason::bigint, corrupt_generation_stamp, 0::bigint, "
      + "0::smallint, 0::bigint, 0::bigint, storage_id%1$s FROM replicas WHERE inode_id = ? "
      + "UNION ALL SELECT 2::smallint, block_id, state::bigint, generation_stamp, 0::bigint, 0::smallint, 0::bigint, "
      + "0::bigint, storage_id%1$s FROM uc_replicas WHERE inode_id = ?";
  private static final String SQL = String.format(ROWS, "");
  /** With the file's database-resident bytes (design 016) as a fourth kind of row, from either tier. */
  private static final String SQL_WITH_SMALL_DATA = String.format(ROWS, ", NULL::bytea")
      + " UNION ALL SELECT 3::smallint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::smallint, 0::bigint, "
      + "0::bigint, NULL::text, data FROM small_file_inline WHERE inode_id = ? "
      + "UNION ALL SELECT 3::smallint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::smallint, 0::bigint, "
      + "0::bigint, NULL::text, data FROM small_file_data WHERE inode_id = ?";

  /**
   * Some blocks of a file and their replicas: the same union, each branch a primary-key range scan narrowed to the
   * listed block ids (index conditions on (inode_id, block_id), not a filter over the file's rows).
   */
  private static final String SQL_OF_BLOCKS =
      "SELECT 0::smallint, block_id, block_index::bigint, num_bytes, generation_stamp, state, recovery_id, "
      + "truncate_length, NULL::text FROM blocks WHERE inode_id = ? AND block_id = ANY(?) "
      + "UNION ALL SELECT 1::smallint, block_id, corrupt_reason::bigint, corrupt_generation_stamp, 0::bigint, "
      + "0::smallint, 0::bigint, 0::bigint, storage_id FROM replicas WHERE inode_id = ? AND block_id = ANY(?) "
      + "UNION ALL SELECT 2::smallint, block_id, state::bigint, generation_stamp, 0::bigint, 0::smallint, 0::bigint, "
      + "0::bigint, storage_id FROM uc_replicas WHERE inode_id = ? AND block_id = ANY(?)";

  private PgFileRows() {
  }

  /** The bytes of a small file, as a row of the union. */
  private record SmallData(byte[] bytes) {
  }

  /** One row of the union: a {@link Block}, a {@link Replica}, a {@link UcReplica} or, if asked for, bytes. */
  static Jdbc.Part<Object> part(long inodeId, boolean withSmallData) {
    return new Jdbc.Part<>(withSmallData ? SQL_WITH_SMALL_DATA : SQL, s -> {
      int parameters = withSmallData ? 5 : 3;
      for (int i = 1; i <= parameters; i++) {
        s.setLong(i, inodeId);
      }
    }, r -> map(inodeId, r));
  }

  /** The rows of the blocks among {@code blockIds} of a file, as {@link #part} reads a whole file's. */
  static Jdbc.Part<Object> partOfBlocks(long inodeId, Set<Long> blockIds) {
    Long[] ids = blockIds.toArray(new Long[0]);
    return new Jdbc.Part<>(SQL_OF_BLOCKS, s -> {
      java.sql.Array array = s.getConnection().createArrayOf("bigint", ids);
      for (int table = 0; table < 3; table++) {
        s.setLong(2 * table + 1, inodeId);
        s.setArray(2 * table + 2, array);
      }
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
      case SMALL_DATA -> new SmallData(r.getBytes(10));
      default -> throw new SQLException("file rows of inode " + inodeId + ": unknown table tag " + table);
    };
  }

  /** The rows split by table, blocks in index order. */
  static FileRows shape(long inodeId, boolean withSmallData, List<Object> rows) {
    List<Block> blocks = new ArrayList<>();
    List<Replica> replicas = new ArrayList<>();
    List<UcReplica> ucReplicas = new ArrayList<>();
    List<byte[]> smallData = new ArrayList<>(1);
    for (Object row : rows) {
      if (row instanceof Block block) {
        blocks.add(block);
      } else if (row instanceof Replica replica) {
        replicas.add(replica);
      } else if (row instanceof SmallData data) {
        smallData.add(data.bytes());
      } else {
        ucReplicas.add((UcReplica) row);
      }
    }
    blocks.sort(Comparator.comparingInt(Block::index));
    return new FileRows(blocks, replicas, ucReplicas, withSmallData, PgSmallFileTable.single(inodeId, smallData));
  }
}
