package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.FutureBlockTable;
import io.canopy.metadata.entity.FutureBlock;
import java.util.Collection;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_FUTURE_BLOCKS}: blocks reported from beyond the id counters (design 009). */
final class IgniteFutureBlockTable implements FutureBlockTable {
  private static final IgniteRows.Mapping<Long, FutureBlock> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long blockId) {
      return Tuple.create(1).set("BLOCK_ID", blockId);
    }

    @Override
    public Tuple row(FutureBlock b) {
      return key(b.blockId()).set("GENERATION_STAMP", b.generationStamp()).set("NUM_BYTES", b.numBytes())
          .set("DATANODE_UUID", b.datanodeUuid()).set("REPORTED_AT_MS", b.reportedAtMs());
    }

    @Override
    public FutureBlock read(Tuple r) {
      return new FutureBlock(r.longValue("BLOCK_ID"), r.longValue("GENERATION_STAMP"), r.longValue("NUM_BYTES"),
          r.stringValue("DATANODE_UUID"), r.longValue("REPORTED_AT_MS"));
    }

    @Override
    public Long keyOf(FutureBlock b) {
      return b.blockId();
    }
  };

  private final IgniteRows<Long, FutureBlock> rows;

  IgniteFutureBlockTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.FUTURE_BLOCKS, client, session, MAPPING, IgniteRows.OnExisting.KEEP);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Map<Long, FutureBlock> get(Collection<Long> blockIds) throws StoreException {
    return rows.getAll(blockIds, LockMode.NONE);
  }

  @Override
  public void insert(FutureBlock block) {
    rows.insert(block.blockId(), block);
  }

  @Override
  public void deleteAll() {
    rows.deleteWhere("BLOCK_ID = BLOCK_ID", block -> true);
  }
}
