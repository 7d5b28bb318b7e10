package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.UcReplicaTable;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

final class PgUcReplicaTable implements UcReplicaTable, BufferedTable {
  private static final String COLUMNS = "inode_id, block_id, storage_id, state, generation_stamp";

  private static final ReplicaRows.Values<UcReplica> VALUES = new ReplicaRows.Values<>(UcReplica::inodeId,
      UcReplica::blockId, UcReplica::storageId, r -> (short) r.state().code(), UcReplica::generationStamp);

  private final Jdbc jdbc;
  private final WriteBuffer<ReplicaKey, UcReplica> writes = new WriteBuffer<>("uc_replicas");

  PgUcReplicaTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<UcReplica> ofFilePart(long inodeId) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM uc_replicas WHERE inode_id = ?", s -> s.setLong(1, inodeId),
        PgUcReplicaTable::map);
  }

  @Override
  public List<UcReplica> ofFile(long inodeId) throws StoreException {
    return jdbc.run(ofFilePart(inodeId));
  }

  @Override
  public List<UcReplica> ofFiles(Collection<Long> inodeIds) throws StoreException {
    if (inodeIds.isEmpty()) {
      return List.of();
    }
    Long[] ids = inodeIds.toArray(new Long[0]);
    return jdbc.query("SELECT " + COLUMNS + " FROM uc_replicas WHERE inode_id = ANY(?)",
        s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids)), PgUcReplicaTable::map);
  }

  @Override
  public void insert(UcReplica replica) {
    writes.insert(replica.key(), replica);
  }

  @Override
  public void update(UcReplica replica) {
    writes.update(replica.key(), replica);
  }

  @Override
  public void delete(ReplicaKey key) {
    writes.delete(key);
  }

  @Override
  public void flush() {
    ReplicaRows.delete(jdbc, "uc_replicas", writes.deletes());
    ReplicaRows.insert(jdbc, "uc_replicas", COLUMNS, "", writes.inserts(), VALUES);
    jdbc.batch("UPDATE uc_replicas SET state = ?, generation_stamp = ? WHERE inode_id = ? AND block_id = ? "
        + "AND storage_id = ?", writes.updates(), (s, r) -> {
          s.setShort(1, (short) r.state().code());
          s.setLong(2, r.generationStamp());
          s.setLong(3, r.inodeId());
          s.setLong(4, r.blockId());
          s.setString(5, r.storageId());
        });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static UcReplica map(ResultSet r) throws SQLException {
    return new UcReplica(r.getLong(1), r.getLong(2), r.getString(3), UcReplicaState.fromCode(r.getShort(4)),
        r.getLong(5));
  }
}
