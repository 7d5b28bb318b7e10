package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.InvalidationTable;
import io.canopy.metadata.entity.InvalidatedBlock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_INVALIDATIONS}: replicas datanodes must delete, colocated by datanode. */
final class IgniteInvalidationTable implements InvalidationTable {
  private record Key(String datanodeUuid, long blockId) {
  }

  private static final IgniteRows.Mapping<Key, InvalidatedBlock> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Key key) {
      return Tuple.create(2).set("DATANODE_UUID", key.datanodeUuid()).set("BLOCK_ID", key.blockId());
    }

    @Override
    public Tuple row(InvalidatedBlock b) {
      return key(keyOf(b)).set("GENERATION_STAMP", b.generationStamp()).set("NUM_BYTES", b.numBytes());
    }

    @Override
    public InvalidatedBlock read(Tuple r) {
      return new InvalidatedBlock(r.stringValue("DATANODE_UUID"), r.longValue("BLOCK_ID"),
          r.longValue("GENERATION_STAMP"), r.longValue("NUM_BYTES"));
    }

    @Override
    public Key keyOf(InvalidatedBlock b) {
      return new Key(b.datanodeUuid(), b.blockId());
    }
  };

  private final IgniteRows<Key, InvalidatedBlock> rows;

  IgniteInvalidationTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.INVALIDATIONS, client, session, MAPPING, IgniteRows.OnExisting.KEEP);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<InvalidatedBlock> ofDatanode(String datanodeUuid, int limit) throws StoreException {
    return rows.scan(IgniteSchema.INVALIDATIONS + "_PK", "WHERE DATANODE_UUID = ? ORDER BY BLOCK_ID LIMIT ?",
        LockMode.EXCLUSIVE, datanodeUuid, limit);
  }

  @Override
  public List<InvalidatedBlock> ofBlock(long blockId, Collection<String> datanodeUuids) throws StoreException {
    List<Key> keys = new ArrayList<>();
    for (String uuid : datanodeUuids) {
      keys.add(new Key(uuid, blockId));
    }
    return new ArrayList<>(rows.getAll(keys, LockMode.NONE).values());
  }

  @Override
  public void insert(InvalidatedBlock block) {
    rows.insert(MAPPING.keyOf(block), block);
  }

  @Override
  public void delete(InvalidatedBlock block) {
    rows.delete(MAPPING.keyOf(block));
  }
}
