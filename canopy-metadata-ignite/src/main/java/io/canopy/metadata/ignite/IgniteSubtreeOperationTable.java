package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.SubtreeOperationTable;
import io.canopy.metadata.entity.SubtreeOperation;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_SUBTREE_OPERATIONS}: running subtree operations (design 017), keyed by the directory they hold. */
final class IgniteSubtreeOperationTable implements SubtreeOperationTable {
  private static final IgniteRows.Mapping<Long, SubtreeOperation> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long rootId) {
      return Tuple.create(1).set("ROOT_ID", rootId);
    }

    @Override
    public Tuple row(SubtreeOperation o) {
      return key(o.rootId()).set("NAMENODE_ID", o.namenodeId()).set("OPERATION", o.operation())
          .set("OP_PATH", o.path()).set("STARTED_MS", o.startedMs());
    }

    @Override
    public SubtreeOperation read(Tuple r) {
      return new SubtreeOperation(r.longValue("ROOT_ID"), r.longValue("NAMENODE_ID"), r.stringValue("OPERATION"),
          r.stringValue("OP_PATH"), r.longValue("STARTED_MS"));
    }

    @Override
    public Long keyOf(SubtreeOperation o) {
      return o.rootId();
    }
  };

  private final IgniteRows<Long, SubtreeOperation> rows;

  IgniteSubtreeOperationTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.SUBTREE_OPERATIONS, client, session, MAPPING,
        IgniteRows.OnExisting.REPLACE);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<SubtreeOperation> all(int limit) throws StoreException {
    return rows.scan(IgniteSchema.SUBTREE_OPERATIONS + "_PK", "ORDER BY ROOT_ID LIMIT ?", LockMode.NONE, limit);
  }

  @Override
  public Optional<SubtreeOperation> get(long rootId) throws StoreException {
    return rows.get(rootId, LockMode.NONE);
  }

  @Override
  public void put(SubtreeOperation operation) {
    rows.put(operation.rootId(), operation);
  }

  @Override
  public void delete(long rootId) {
    rows.delete(rootId);
  }
}
