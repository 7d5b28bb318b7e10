package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.ReplicaBuckets;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.ReplicaTable;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.ReplicaWithBlock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/**
 * {@code CANOPY_REPLICAS}: finalized replicas, colocated by inode id, with an index by storage. The hash buckets of
 * design 018 are computed from a storage's replicas when asked (no bucket rows to keep: a full block report costs a
 * scan of its storage's replicas on this engine; design 020).
 */
final class IgniteReplicaTable implements ReplicaTable {
  private static final IgniteRows.Mapping<ReplicaKey, Replica> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(ReplicaKey key) {
      return Tuple.create(3).set("INODE_ID", key.inodeId()).set("BLOCK_ID", key.blockId())
          .set("STORAGE_ID", key.storageId());
    }

    @Override
    public Tuple row(Replica r) {
      return key(keyOf(r)).set("CORRUPT_REASON", (byte) r.corruptReason().code())
          .set("CORRUPT_GENERATION_STAMP", r.corruptGenerationStamp());
    }

    @Override
    public Replica read(Tuple r) {
      return new Replica(r.longValue("INODE_ID"), r.longValue("BLOCK_ID"), r.stringValue("STORAGE_ID"),
          CorruptReason.fromCode(r.byteValue("CORRUPT_REASON")), r.longValue("CORRUPT_GENERATION_STAMP"));
    }

    @Override
    public ReplicaKey keyOf(Replica r) {
      return new ReplicaKey(r.inodeId(), r.blockId(), r.storageId());
    }
  };
  private static final String PK = IgniteSchema.REPLICAS + "_PK";
  private static final String BY_STORAGE = IgniteSchema.REPLICAS + "_BY_STORAGE";
  /** Blocks read per request when joining a storage's replicas with their blocks. */
  private static final int BLOCK_READS_PER_REQUEST = 1_000;

  private final IgniteRows<ReplicaKey, Replica> rows;
  private final IgniteBlockTable blocks;

  IgniteReplicaTable(IgniteClient client, IgniteSession session, IgniteBlockTable blocks) {
    rows = new IgniteRows<>(IgniteSchema.REPLICAS, client, session, MAPPING, IgniteRows.OnExisting.KEEP);
    this.blocks = blocks;
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<Replica> ofFile(long inodeId) throws StoreException {
    return rows.scanOfInodes(IgniteSchema.byInode(IgniteSchema.REPLICAS), "WHERE INODE_ID = ? ORDER BY BLOCK_ID,"
        + " STORAGE_ID", LockMode.NONE, inodeId);
  }

  @Override
  public List<Replica> ofFiles(Collection<Long> inodeIds) throws StoreException {
    if (inodeIds.isEmpty()) {
      return List.of();
    }
    List<Replica> replicas = new java.util.ArrayList<>();
    for (List<Long> ids : IgniteSql.idLists(inodeIds)) {
      replicas.addAll(rows.scanOfInodes(PK, "WHERE INODE_ID IN (" + IgniteSql.placeholders(ids.size())
          + ") ORDER BY INODE_ID, BLOCK_ID, STORAGE_ID", LockMode.NONE, ids.toArray()));
    }
    return replicas;
  }

  @Override
  public List<Replica> onStorage(String storageId) throws StoreException {
    return rows.scan(BY_STORAGE, "WHERE STORAGE_ID = ? ORDER BY INODE_ID, BLOCK_ID", LockMode.NONE, storageId);
  }

  @Override
  public List<ReplicaWithBlock> onStorageWithBlocks(String storageId) throws StoreException {
    return withBlocks(onStorage(storageId));
  }

  @Override
  public List<ReplicaWithBlock> onStorageWithBlocks(String storageId, Collection<Integer> buckets)
      throws StoreException {
    if (buckets.isEmpty()) {
      return List.of();
    }
    Set<Integer> wanted = Set.copyOf(buckets);
    List<Replica> inBuckets = new ArrayList<>();
    for (Replica replica : onStorage(storageId)) {
      if (wanted.contains(ReplicaBuckets.bucketOf(replica.blockId()))) {
        inBuckets.add(replica);
      }
    }
    return withBlocks(inBuckets);
  }

  /** The replicas with their blocks' stamp, length and state (0, 0 and null when the block has no row). */
  private List<ReplicaWithBlock> withBlocks(List<Replica> replicas) throws StoreException {
    List<ReplicaWithBlock> joined = new ArrayList<>(replicas.size());
    for (int from = 0; from < replicas.size(); from += BLOCK_READS_PER_REQUEST) {
      List<Replica> part = replicas.subList(from, Math.min(replicas.size(), from + BLOCK_READS_PER_REQUEST));
      List<BlockKey> keys = new ArrayList<>(part.size());
      for (Replica replica : part) {
        keys.add(new BlockKey(replica.inodeId(), replica.blockId()));
      }
      Map<BlockKey, Block> found = blocks.rows().getAll(keys, LockMode.NONE);
      for (Replica replica : part) {
        Block block = found.get(new BlockKey(replica.inodeId(), replica.blockId()));
        joined.add(block == null ? new ReplicaWithBlock(replica, 0, 0, null)
            : new ReplicaWithBlock(replica, block.generationStamp(), block.numBytes(), block.state()));
      }
    }
    return joined;
  }

  @Override
  public Map<Integer, ReplicaBuckets.Bucket> buckets(String storageId) throws StoreException {
    ReplicaBuckets buckets = new ReplicaBuckets();
    for (ReplicaWithBlock row : onStorageWithBlocks(storageId)) {
      Replica replica = row.replica();
      if (!replica.corrupt() && row.blockState() == BlockState.COMPLETE) {
        buckets.add(replica.blockId(), row.blockGenerationStamp(), row.blockNumBytes());
      } else {
        buckets.addUnmatchable(replica.blockId());
      }
    }
    return buckets.buckets();
  }

  @Override
  public int foldBucketChanges(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("a fold's limit must be positive, got " + limit);
    }
    return 0;
  }

  @Override
  public List<Replica> onStorage(String storageId, ReplicaKey after, int limit) throws StoreException {
    if (after == null) {
      return rows.scan(BY_STORAGE, "WHERE STORAGE_ID = ? ORDER BY INODE_ID, BLOCK_ID LIMIT ?", LockMode.NONE,
          storageId, limit);
    }
    return rows.scan(BY_STORAGE, "WHERE STORAGE_ID = ? AND (INODE_ID > ? OR INODE_ID = ? AND BLOCK_ID > ?)"
        + " ORDER BY INODE_ID, BLOCK_ID LIMIT ?", LockMode.NONE, storageId, after.inodeId(), after.inodeId(),
        after.blockId(), limit);
  }

  @Override
  public List<Replica> good(ReplicaKey after, int limit) throws StoreException {
    return page("CORRUPT_REASON = 0", "good", after, limit);
  }

  @Override
  public List<Replica> corrupt(ReplicaKey after, int limit) throws StoreException {
    return page("CORRUPT_REASON <> 0", "corrupt", after, limit);
  }

  private List<Replica> page(String condition, String what, ReplicaKey after, int limit) throws StoreException {
    if (limit <= 0) {
      throw new IllegalArgumentException(what + " replica page limit must be positive, got " + limit);
    }
    String order = " ORDER BY INODE_ID, BLOCK_ID, STORAGE_ID LIMIT ?";
    if (after == null) {
      return rows.scan(PK, "WHERE " + condition + order, LockMode.NONE, limit);
    }
    return rows.scan(PK, "WHERE " + condition + " AND (INODE_ID > ? OR INODE_ID = ? AND (BLOCK_ID > ?"
        + " OR BLOCK_ID = ? AND STORAGE_ID > ?))" + order, LockMode.NONE, after.inodeId(), after.inodeId(),
        after.blockId(), after.blockId(), after.storageId(), limit);
  }

  @Override
  public void insert(Replica replica) {
    rows.insert(MAPPING.keyOf(replica), replica);
  }

  @Override
  public void update(Replica replica) {
    rows.update(MAPPING.keyOf(replica), replica);
  }

  @Override
  public void delete(ReplicaKey key) {
    rows.delete(key);
  }
}
