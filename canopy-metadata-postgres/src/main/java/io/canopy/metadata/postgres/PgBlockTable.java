package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.BlockTable;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

final class PgBlockTable implements BlockTable, BufferedTable {
  private static final String COLUMNS =
      "inode_id, block_id, block_index, num_bytes, generation_stamp, state, recovery_id, truncate_length";

  private final Jdbc jdbc;
  private final WriteBuffer<BlockKey, Block> writes = new WriteBuffer<>("blocks");

  PgBlockTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Optional<Block> get(BlockKey key) throws StoreException {
    return jdbc.query("SELECT " + COLUMNS + " FROM blocks WHERE inode_id = ? AND block_id = ?", s -> {
      s.setLong(1, key.inodeId());
      s.setLong(2, key.blockId());
    }, PgBlockTable::map).stream().findFirst();
  }

  static Jdbc.Part<Block> ofFilePart(long inodeId) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM blocks WHERE inode_id = ? ORDER BY block_index",
        s -> s.setLong(1, inodeId), PgBlockTable::map);
  }

  @Override
  public List<Block> ofFile(long inodeId) throws StoreException {
    return jdbc.run(ofFilePart(inodeId));
  }

  @Override
  public List<Block> ofFiles(Collection<Long> inodeIds) throws StoreException {
    if (inodeIds.isEmpty()) {
      return List.of();
    }
    Long[] ids = inodeIds.toArray(new Long[0]);
    return jdbc.query("SELECT " + COLUMNS + " FROM blocks WHERE inode_id = ANY(?) ORDER BY inode_id, block_index",
        s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids)), PgBlockTable::map);
  }

  @Override
  public void insert(Block block) {
    writes.insert(block.key(), block);
  }

  @Override
  public void update(Block block) {
    writes.update(block.key(), block);
  }

  @Override
  public void delete(BlockKey key) {
    writes.delete(key);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM blocks WHERE inode_id = ? AND block_id = ?", writes.deletes(), (s, key) -> {
      s.setLong(1, key.inodeId());
      s.setLong(2, key.blockId());
    });
    jdbc.batch("INSERT INTO blocks (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)", writes.inserts(), (s, b) -> {
      s.setLong(1, b.inodeId());
      s.setLong(2, b.blockId());
      s.setInt(3, b.index());
      s.setLong(4, b.numBytes());
      s.setLong(5, b.generationStamp());
      s.setShort(6, (short) b.state().code());
      s.setLong(7, b.recoveryId());
      s.setLong(8, b.truncateLength());
    });
    jdbc.batch("UPDATE blocks SET block_index = ?, num_bytes = ?, generation_stamp = ?, state = ?, recovery_id = ?, "
        + "truncate_length = ? WHERE inode_id = ? AND block_id = ?", writes.updates(), (s, b) -> {
          s.setInt(1, b.index());
          s.setLong(2, b.numBytes());
          s.setLong(3, b.generationStamp());
          s.setShort(4, (short) b.state().code());
          s.setLong(5, b.recoveryId());
          s.setLong(6, b.truncateLength());
          s.setLong(7, b.inodeId());
          s.setLong(8, b.blockId());
        });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static Block map(ResultSet r) throws SQLException {
    return new Block(r.getLong(1), r.getLong(2), r.getInt(3), r.getLong(4), r.getLong(5),
        BlockState.fromCode(r.getShort(6)), r.getLong(7), r.getLong(8));
  }

}
