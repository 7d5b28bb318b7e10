package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.SmallFileTable;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/**
 * {@code CANOPY_SMALL_FILES}: the bytes of files stored with their metadata (design 016), one row a file, keyed by
 * inode id (PostgreSQL's two tiers exist for its storage layout; Ignite needs one).
 */
final class IgniteSmallFileTable implements SmallFileTable {
  private record Row(long inodeId, byte[] data) {
  }

  private static final IgniteRows.Mapping<Long, Row> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Long inodeId) {
      return Tuple.create(1).set("INODE_ID", inodeId);
    }

    @Override
    public Tuple row(Row row) {
      return key(row.inodeId()).set("DATA", row.data());
    }

    @Override
    public Row read(Tuple r) {
      return new Row(r.longValue("INODE_ID"), r.bytesValue("DATA"));
    }

    @Override
    public Long keyOf(Row row) {
      return row.inodeId();
    }
  };

  /** Inserts fail on an existing row (the precondition of {@link #insert}); {@link #put} deletes first. */
  private final IgniteRows<Long, Row> rows;

  IgniteSmallFileTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.SMALL_FILES, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Optional<byte[]> get(long inodeId) throws StoreException {
    return rows.get(inodeId, LockMode.NONE).map(Row::data);
  }

  @Override
  public void put(long inodeId, byte[] data) {
    rows.delete(inodeId);
    rows.insert(inodeId, new Row(inodeId, data.clone()));
  }

  @Override
  public void insert(long inodeId, byte[] data) {
    rows.insert(inodeId, new Row(inodeId, data.clone()));
  }

  @Override
  public void delete(long inodeId) {
    rows.delete(inodeId);
  }

  @Override
  public void deleteOfInodes(Collection<Long> inodeIds) {
    if (inodeIds.isEmpty()) {
      return;
    }
    for (List<Long> list : IgniteSql.idLists(inodeIds)) {
      Set<Long> ids = Set.copyOf(list);
      rows.deleteWhere("INODE_ID IN (" + IgniteSql.placeholders(ids.size()) + ")", row -> ids.contains(row.inodeId()),
          list.toArray());
    }
  }
}
