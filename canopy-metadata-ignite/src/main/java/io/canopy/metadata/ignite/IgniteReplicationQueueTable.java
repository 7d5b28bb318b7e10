package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReplicationQueueTable;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicationPriority;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_REPLICATION_QUEUE}: blocks whose live replica count is off, colocated by inode id. */
final class IgniteReplicationQueueTable implements ReplicationQueueTable {
  private static final IgniteRows.Mapping<BlockKey, QueuedBlock> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(BlockKey key) {
      return Tuple.create(2).set("INODE_ID", key.inodeId()).set("BLOCK_ID", key.blockId());
    }

    @Override
    public Tuple row(QueuedBlock b) {
      return key(keyOf(b)).set("PRIORITY", (byte) b.priority().code()).set("NOT_BEFORE_MS", b.notBeforeMs());
    }

    @Override
    public QueuedBlock read(Tuple r) {
      return new QueuedBlock(r.longValue("INODE_ID"), r.longValue("BLOCK_ID"),
          ReplicationPriority.fromCode(r.byteValue("PRIORITY")), r.longValue("NOT_BEFORE_MS"));
    }

    @Override
    public BlockKey keyOf(QueuedBlock b) {
      return new BlockKey(b.inodeId(), b.blockId());
    }
  };

  private final IgniteRows<BlockKey, QueuedBlock> rows;

  IgniteReplicationQueueTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.REPLICATION_QUEUE, client, session, MAPPING,
        IgniteRows.OnExisting.REPLACE);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<QueuedBlock> ofFile(long inodeId) throws StoreException {
    return rows.scanOfInodes(IgniteSchema.REPLICATION_QUEUE + "_PK", "WHERE INODE_ID = ? ORDER BY BLOCK_ID", LockMode.NONE,
        inodeId);
  }

  @Override
  public List<QueuedBlock> page(QueuedBlock after, int limit) throws StoreException {
    String index = IgniteSchema.REPLICATION_QUEUE + "_BY_PRIORITY";
    String order = " ORDER BY PRIORITY, INODE_ID, BLOCK_ID LIMIT ?";
    if (after == null) {
      return rows.scan(index, order, LockMode.NONE, limit);
    }
    byte priority = (byte) after.priority().code();
    return rows.scan(index, "WHERE PRIORITY > ? OR PRIORITY = ? AND (INODE_ID > ? OR INODE_ID = ? AND BLOCK_ID > ?)"
        + order, LockMode.NONE, priority, priority, after.inodeId(), after.inodeId(), after.blockId(), limit);
  }

  @Override
  public void put(QueuedBlock block) {
    rows.put(MAPPING.keyOf(block), block);
  }

  @Override
  public void delete(BlockKey key) {
    rows.delete(key);
  }
}
