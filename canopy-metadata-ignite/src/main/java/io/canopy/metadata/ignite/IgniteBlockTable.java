package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.BlockTable;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.BlockState;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_BLOCKS}: a file's blocks, colocated by inode id (locked implicitly through the file's inode). */
final class IgniteBlockTable implements BlockTable {
  static final IgniteRows.Mapping<BlockKey, Block> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(BlockKey key) {
      return Tuple.create(2).set("INODE_ID", key.inodeId()).set("BLOCK_ID", key.blockId());
    }

    @Override
    public Tuple row(Block b) {
      return key(keyOf(b)).set("IDX", b.index()).set("NUM_BYTES", b.numBytes())
          .set("GENERATION_STAMP", b.generationStamp()).set("STATE", (byte) b.state().code())
          .set("RECOVERY_ID", b.recoveryId()).set("TRUNCATE_LENGTH", b.truncateLength());
    }

    @Override
    public Block read(Tuple r) {
      return new Block(r.longValue("INODE_ID"), r.longValue("BLOCK_ID"), r.intValue("IDX"), r.longValue("NUM_BYTES"),
          r.longValue("GENERATION_STAMP"), BlockState.fromCode(r.byteValue("STATE")), r.longValue("RECOVERY_ID"),
          r.longValue("TRUNCATE_LENGTH"));
    }

    @Override
    public BlockKey keyOf(Block b) {
      return new BlockKey(b.inodeId(), b.blockId());
    }
  };
  private static final String INDEX = IgniteSchema.BLOCKS + "_PK";

  private final IgniteRows<BlockKey, Block> rows;

  IgniteBlockTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.BLOCKS, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<BlockKey, Block> rows() {
    return rows;
  }

  @Override
  public Optional<Block> get(BlockKey key) throws StoreException {
    return rows.get(key, LockMode.NONE);
  }

  @Override
  public List<Block> ofFile(long inodeId) throws StoreException {
    return rows.scanOfInodes(IgniteSchema.byInode(IgniteSchema.BLOCKS), "WHERE INODE_ID = ? ORDER BY IDX",
        LockMode.NONE, inodeId);
  }

  @Override
  public List<Block> ofFiles(Collection<Long> inodeIds) throws StoreException {
    if (inodeIds.isEmpty()) {
      return List.of();
    }
    List<Block> blocks = new java.util.ArrayList<>();
    for (List<Long> ids : IgniteSql.idLists(inodeIds)) {
      blocks.addAll(rows.scanOfInodes(INDEX, "WHERE INODE_ID IN (" + IgniteSql.placeholders(ids.size())
          + ") ORDER BY INODE_ID, IDX", LockMode.NONE, ids.toArray()));
    }
    return blocks;
  }

  @Override
  public void insert(Block block) {
    rows.insert(MAPPING.keyOf(block), block);
  }

  @Override
  public void update(Block block) {
    rows.update(MAPPING.keyOf(block), block);
  }

  @Override
  public void delete(BlockKey key) {
    rows.delete(key);
  }
}
