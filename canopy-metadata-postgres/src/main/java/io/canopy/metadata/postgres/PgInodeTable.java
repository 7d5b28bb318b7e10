package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.InodeTable;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.spi.WriteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class PgInodeTable implements InodeTable, BufferedTable {
  private static final String COLUMNS = "i.partition_id, i.parent_id, i.name, i.id, i.is_dir, i.permission, "
      + "i.owner_name, i.group_name, i.modification_time, i.access_time, i.size, i.replication, "
      + "i.preferred_block_size, i.storage_policy, i.under_construction, i.client_name, i.client_machine, "
      + "i.symlink_target, i.children_count, i.spread_children, i.has_quota, "
      + "i.subtree_lock_owner";
  private static final String INSERT = "INSERT INTO inodes (partition_id, parent_id, name, id, is_dir, permission, "
      + "owner_name, group_name, modification_time, access_time, size, replication, preferred_block_size, "
      + "storage_policy, under_construction, client_name, client_machine, symlink_target, children_count, "
      + "spread_children, has_quota, subtree_lock_owner) "
      + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String UPDATE = "UPDATE inodes SET id = ?, is_dir = ?, permission = ?, owner_name = ?, "
      + "group_name = ?, modification_time = ?, access_time = ?, size = ?, replication = ?, "
      + "preferred_block_size = ?, storage_policy = ?, under_construction = ?, client_name = ?, "
      + "client_machine = ?, symlink_target = ?, children_count = ?, spread_children = ?, has_quota = ?, "
      + "subtree_lock_owner = ? "
      + "WHERE partition_id = ? AND parent_id = ? AND name = ?";

  private final Jdbc jdbc;
  private final WriteBuffer<InodeKey, Inode> writes = new WriteBuffer<>("inodes");

  PgInodeTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<Inode> getPart(InodeKey key, LockMode lock) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM inodes i WHERE i.partition_id = ? AND i.parent_id = ? "
        + "AND i.name = ?" + Jdbc.lockClause(lock, "i"), s -> {
          s.setLong(1, key.partitionId());
          s.setLong(2, key.parentId());
          s.setString(3, key.name());
        }, PgInodeTable::map);
  }

  /**
   * Inodes read by primary key, any number of them with one statement whose plan does not depend on how many: a
   * lateral join over the unnested key arrays whose inner side is a one-row primary-key lookup ({@code LIMIT 1}
   * keeps it a parameterized index scan, never a hash join, even under a generic plan that guesses the arrays'
   * length). A whole path is one statement whatever its depth (docs/design/012-statements-per-operation.md). Keys
   * can be added until the statement runs. Meant for unlocked reads: a locking one reads every key with the snapshot
   * the statement started with, even keys looked up after waiting for a lock (see {@link PgReadBatch#inode}).
   */
  static final class KeyReads {
    private final List<InodeKey> keys = new ArrayList<>();
    private final Jdbc.Part<Inode> part;
    private Map<InodeKey, Inode> rows;

    KeyReads(LockMode lock) {
      part = new Jdbc.Part<>("SELECT " + COLUMNS + " FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS k(p, pa, n) "
          + "CROSS JOIN LATERAL (SELECT " + COLUMNS + " FROM inodes i WHERE i.partition_id = k.p "
          + "AND i.parent_id = k.pa AND i.name = k.n COLLATE \"C\" LIMIT 1" + Jdbc.lockClause(lock, "i") + ") i",
          this::bind, PgInodeTable::map);
    }

    Jdbc.Part<Inode> part() {
      return part;
    }

    void add(InodeKey key) {
      if (part.rows() != null) {
        throw new IllegalStateException("inode key reads already executed");
      }
      keys.add(key);
    }

    private void bind(Params s) throws SQLException {
      Long[] partitions = new Long[keys.size()];
      Long[] parents = new Long[keys.size()];
      String[] names = new String[keys.size()];
      for (int i = 0; i < keys.size(); i++) {
        partitions[i] = keys.get(i).partitionId();
        parents[i] = keys.get(i).parentId();
        names[i] = keys.get(i).name();
      }
      s.setArray(1, s.getConnection().createArrayOf("bigint", partitions));
      s.setArray(2, s.getConnection().createArrayOf("bigint", parents));
      s.setArray(3, s.getConnection().createArrayOf("text", names));
    }

    /** The rows found, by key; throws before the statement ran. */
    Map<InodeKey, Inode> rows() {
      if (rows == null) {
        if (part.rows() == null) {
          throw new IllegalStateException("read batch not executed yet");
        }
        rows = byKey(part.rows());
      }
      return rows;
    }
  }

  static Jdbc.Part<Inode> byIdPart(long inodeId, LockMode lock) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM inodes i WHERE i.id = ?" + Jdbc.lockClause(lock, "i"),
        s -> s.setLong(1, inodeId), PgInodeTable::map);
  }

  static Map<InodeKey, Inode> byKey(List<Inode> rows) {
    Map<InodeKey, Inode> result = new LinkedHashMap<>();
    for (Inode inode : rows) {
      result.put(inode.key(), inode);
    }
    return result;
  }

  @Override
  public Optional<Inode> get(InodeKey key, LockMode lock) throws StoreException {
    return jdbc.run(getPart(key, jdbc.effective(lock))).stream().findFirst();
  }

  @Override
  public Map<InodeKey, Inode> getAll(List<InodeKey> keys, LockMode lock) throws StoreException {
    if (keys.isEmpty()) {
      return new LinkedHashMap<>();
    }
    LockMode effective = jdbc.effective(lock);
    if (effective != LockMode.NONE) {
      // one statement per locked row (see PgReadBatch#inode), all in one round trip
      List<Jdbc.Part<Inode>> parts = new ArrayList<>(keys.size());
      for (InodeKey key : keys) {
        parts.add(getPart(key, effective));
      }
      jdbc.pipeline(parts, false);
      Map<InodeKey, Inode> found = new LinkedHashMap<>();
      parts.forEach(part -> found.putAll(byKey(part.rows())));
      return found;
    }
    KeyReads reads = new KeyReads(effective);
    keys.forEach(reads::add);
    jdbc.run(reads.part());
    return reads.rows();
  }

  @Override
  public Optional<Inode> getById(long inodeId, LockMode lock) throws StoreException {
    return jdbc.run(byIdPart(inodeId, jdbc.effective(lock))).stream().findFirst();
  }

  static Jdbc.Part<Inode> childrenPart(long partitionId, long parentId, String startAfter, int limit,
      LockMode lock) {
    checkLimit(limit);
    String after = startAfter == null ? "" : startAfter;
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM inodes i WHERE i.partition_id = ? AND i.parent_id = ? "
        + "AND i.name > ? ORDER BY i.name LIMIT ?" + Jdbc.lockClause(lock, "i"), s -> {
          s.setLong(1, partitionId);
          s.setLong(2, parentId);
          s.setString(3, after);
          s.setInt(4, limit);
        }, PgInodeTable::map);
  }

  static Jdbc.Part<Inode> spreadChildrenPart(long parentId, String startAfter, int limit, LockMode lock) {
    checkLimit(limit);
    String after = startAfter == null ? "" : startAfter;
    // partition_id <> parent_id selects the partial index that holds exactly the spread rows
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM inodes i WHERE i.parent_id = ? "
        + "AND i.partition_id <> i.parent_id AND i.name > ? ORDER BY i.name LIMIT ?" + Jdbc.lockClause(lock, "i"),
        s -> {
          s.setLong(1, parentId);
          s.setString(2, after);
          s.setInt(3, limit);
        }, PgInodeTable::map);
  }

  static Jdbc.Part<Long> countChildrenPart(long partitionId, long parentId, String startAfter) {
    String after = startAfter == null ? "" : startAfter;
    return new Jdbc.Part<>("SELECT count(*) FROM inodes i WHERE i.partition_id = ? AND i.parent_id = ? "
        + "AND i.name > ?", s -> {
          s.setLong(1, partitionId);
          s.setLong(2, parentId);
          s.setString(3, after);
        }, row -> row.getLong(1));
  }

  static Jdbc.Part<Long> countSpreadChildrenPart(long parentId, String startAfter) {
    String after = startAfter == null ? "" : startAfter;
    // the same partial index as spreadChildrenPart
    return new Jdbc.Part<>("SELECT count(*) FROM inodes i WHERE i.parent_id = ? AND i.partition_id <> i.parent_id "
        + "AND i.name > ?", s -> {
          s.setLong(1, parentId);
          s.setString(2, after);
        }, row -> row.getLong(1));
  }

  private static void checkLimit(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("listing limit must be positive, got " + limit);
    }
  }

  @Override
  public List<Inode> children(long partitionId, long parentId, String startAfter, int limit, LockMode lock)
      throws StoreException {
    return jdbc.run(childrenPart(partitionId, parentId, startAfter, limit, jdbc.effective(lock)));
  }

  @Override
  public List<Inode> spreadChildren(long parentId, String startAfter, int limit, LockMode lock)
      throws StoreException {
    return jdbc.run(spreadChildrenPart(parentId, startAfter, limit, jdbc.effective(lock)));
  }

  @Override
  public void insert(Inode inode) {
    writes.insert(inode.key(), inode);
  }

  @Override
  public void update(Inode inode) {
    writes.update(inode.key(), inode);
  }

  @Override
  public void delete(InodeKey key) {
    writes.delete(key);
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM inodes WHERE partition_id = ? AND parent_id = ? AND name = ?", writes.deletes(),
        (s, key) -> {
          s.setLong(1, key.partitionId());
          s.setLong(2, key.parentId());
          s.setString(3, key.name());
        });
    jdbc.batch(INSERT, writes.inserts(), PgInodeTable::bindInsert);
    jdbc.batch(UPDATE, writes.updates(), PgInodeTable::bindUpdate);
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static void bindInsert(Params s, Inode inode) throws SQLException {
    s.setLong(1, inode.partitionId());
    s.setLong(2, inode.parentId());
    s.setString(3, inode.name());
    s.setLong(4, inode.id());
    s.setBoolean(5, inode.directory());
    bindAttributes(s, 6, inode);
  }

  private static void bindUpdate(Params s, Inode inode) throws SQLException {
    s.setLong(1, inode.id());
    s.setBoolean(2, inode.directory());
    int next = bindAttributes(s, 3, inode);
    s.setLong(next, inode.partitionId());
    s.setLong(next + 1, inode.parentId());
    s.setString(next + 2, inode.name());
  }

  /** Binds permission .. subtree_lock_owner from {@code first}; returns the next free index. */
  private static int bindAttributes(Params s, int first, Inode inode) throws SQLException {
    int i = first;
    s.setShort(i++, inode.permission());
    s.setString(i++, inode.owner());
    s.setString(i++, inode.group());
    s.setLong(i++, inode.modificationTime());
    s.setLong(i++, inode.accessTime());
    s.setLong(i++, inode.size());
    s.setShort(i++, inode.replication());
    s.setLong(i++, inode.preferredBlockSize());
    s.setShort(i++, inode.storagePolicy());
    s.setBoolean(i++, inode.underConstruction());
    s.setString(i++, inode.clientName());
    s.setString(i++, inode.clientMachine());
    s.setString(i++, inode.symlinkTarget());
    s.setLong(i++, inode.childrenCount());
    s.setBoolean(i++, inode.spreadsChildren());
    s.setBoolean(i++, inode.hasQuota());
    s.setLong(i++, inode.subtreeLockOwner());
    return i;
  }

  static Inode map(ResultSet r) throws SQLException {
    return Inode.builder() // in the order of COLUMNS
        .partitionId(r.getLong(1))
        .parentId(r.getLong(2))
        .name(r.getString(3))
        .id(r.getLong(4))
        .directory(r.getBoolean(5))
        .permission(r.getShort(6))
        .owner(r.getString(7))
        .group(r.getString(8))
        .modificationTime(r.getLong(9))
        .accessTime(r.getLong(10))
        .size(r.getLong(11))
        .replication(r.getShort(12))
        .preferredBlockSize(r.getLong(13))
        .storagePolicy((byte) r.getShort(14))
        .underConstruction(r.getBoolean(15))
        .clientName(r.getString(16))
        .clientMachine(r.getString(17))
        .symlinkTarget(r.getString(18))
        .childrenCount(r.getLong(19))
        .spreadsChildren(r.getBoolean(20))
        .hasQuota(r.getBoolean(21))
        .subtreeLockOwner(r.getLong(22))
        .build();
  }
}
