package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.AclTable;
import io.canopy.metadata.entity.InodeAclEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ACL entries. Writes are per inode (its whole ACL is replaced), buffered until commit: the flush deletes every
 * entry of each written inode, then inserts the new ones, all in the commit's pipeline.
 */
final class PgAclTable implements AclTable, BufferedTable {
  private static final String COLUMNS = "inode_id, position, scope, entry_type, name, permission";

  private final Jdbc jdbc;
  /** inode id -> its new entries (empty: the ACL goes); insertion order kept so flushes are deterministic. */
  private final Map<Long, List<InodeAclEntry>> writes = new LinkedHashMap<>();

  PgAclTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Map<Long, List<InodeAclEntry>> ofInodes(Collection<Long> inodeIds) throws StoreException {
    Map<Long, List<InodeAclEntry>> result = new LinkedHashMap<>();
    if (inodeIds.isEmpty()) {
      return result;
    }
    Long[] ids = inodeIds.toArray(new Long[0]);
    List<InodeAclEntry> rows = jdbc.query("SELECT " + COLUMNS + " FROM acl_entries WHERE inode_id = ANY(?) "
        + "ORDER BY inode_id, position", s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids)),
        PgAclTable::map);
    for (InodeAclEntry row : rows) {
      result.computeIfAbsent(row.inodeId(), id -> new ArrayList<>()).add(row);
    }
    return result;
  }

  @Override
  public void replace(long inodeId, List<InodeAclEntry> entries) {
    for (InodeAclEntry entry : entries) {
      if (entry.inodeId() != inodeId) {
        throw new IllegalArgumentException("ACL entry " + entry + " written as an entry of inode " + inodeId);
      }
    }
    writes.put(inodeId, List.copyOf(entries));
  }

  @Override
  public void flush() {
    jdbc.batch("DELETE FROM acl_entries WHERE inode_id = ?", new ArrayList<>(writes.keySet()),
        (s, id) -> s.setLong(1, id));
    List<InodeAclEntry> inserts = new ArrayList<>();
    writes.values().forEach(inserts::addAll);
    jdbc.batch("INSERT INTO acl_entries (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)", inserts, (s, e) -> {
      s.setLong(1, e.inodeId());
      s.setInt(2, e.position());
      s.setShort(3, (short) e.scope().code());
      s.setShort(4, (short) e.type().code());
      s.setString(5, e.name());
      s.setShort(6, (short) e.permission());
    });
    writes.clear();
  }

  @Override
  public void clear() {
    writes.clear();
  }

  private static InodeAclEntry map(ResultSet r) throws SQLException {
    return new InodeAclEntry(r.getLong(1), r.getInt(2), InodeAclEntry.Scope.fromCode(r.getShort(3)),
        InodeAclEntry.Type.fromCode(r.getShort(4)), r.getString(5), r.getShort(6));
  }
}
