package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.UcReplicaTable;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.UcReplica;
import io.canopy.metadata.entity.UcReplicaState;
import java.util.Collection;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_UC_REPLICAS}: replicas of blocks under construction, colocated by inode id. */
final class IgniteUcReplicaTable implements UcReplicaTable {
  static final IgniteRows.Mapping<ReplicaKey, UcReplica> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(ReplicaKey key) {
      return Tuple.create(3).set("INODE_ID", key.inodeId()).set("BLOCK_ID", key.blockId())
          .set("STORAGE_ID", key.storageId());
    }

    @Override
    public Tuple row(UcReplica r) {
      return key(keyOf(r)).set("STATE", (byte) r.state().code()).set("GENERATION_STAMP", r.generationStamp());
    }

    @Override
    public UcReplica read(Tuple r) {
      return new UcReplica(r.longValue("INODE_ID"), r.longValue("BLOCK_ID"), r.stringValue("STORAGE_ID"),
          UcReplicaState.fromCode(r.byteValue("STATE")), r.longValue("GENERATION_STAMP"));
    }

    @Override
    public ReplicaKey keyOf(UcReplica r) {
      return new ReplicaKey(r.inodeId(), r.blockId(), r.storageId());
    }
  };
  private static final String INDEX = IgniteSchema.UC_REPLICAS + "_PK";

  private final IgniteRows<ReplicaKey, UcReplica> rows;

  IgniteUcReplicaTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.UC_REPLICAS, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<UcReplica> ofFile(long inodeId) throws StoreException {
    return rows.scanOfInodes(IgniteSchema.byInode(IgniteSchema.UC_REPLICAS), "WHERE INODE_ID = ? ORDER BY BLOCK_ID,"
        + " STORAGE_ID", LockMode.NONE, inodeId);
  }

  @Override
  public List<UcReplica> ofFiles(Collection<Long> inodeIds) throws StoreException {
    if (inodeIds.isEmpty()) {
      return List.of();
    }
    List<UcReplica> replicas = new java.util.ArrayList<>();
    for (List<Long> ids : IgniteSql.idLists(inodeIds)) {
      replicas.addAll(rows.scanOfInodes(INDEX, "WHERE INODE_ID IN (" + IgniteSql.placeholders(ids.size())
          + ") ORDER BY INODE_ID, BLOCK_ID, STORAGE_ID", LockMode.NONE, ids.toArray()));
    }
    return replicas;
  }

  @Override
  public void insert(UcReplica replica) {
    rows.insert(MAPPING.keyOf(replica), replica);
  }

  @Override
  public void update(UcReplica replica) {
    rows.update(MAPPING.keyOf(replica), replica);
  }

  @Override
  public void delete(ReplicaKey key) {
    rows.delete(key);
  }
}
