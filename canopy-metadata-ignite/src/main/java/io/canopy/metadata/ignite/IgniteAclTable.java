package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.AclTable;
import io.canopy.metadata.entity.InodeAclEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_ACL_ENTRIES}: POSIX ACL entries the permission bits cannot hold, colocated by inode id. */
final class IgniteAclTable implements AclTable {
  private record Key(long inodeId, int position) {
  }

  private static final IgniteRows.Mapping<Key, InodeAclEntry> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(Key key) {
      return Tuple.create(2).set("INODE_ID", key.inodeId()).set("ENTRY_POSITION", key.position());
    }

    @Override
    public Tuple row(InodeAclEntry e) {
      return key(keyOf(e)).set("SCOPE", (byte) e.scope().code()).set("ENTRY_TYPE", (byte) e.type().code())
          .set("NAME", e.name()).set("PERMISSION", (byte) e.permission());
    }

    @Override
    public InodeAclEntry read(Tuple r) {
      return new InodeAclEntry(r.longValue("INODE_ID"), r.intValue("ENTRY_POSITION"),
          InodeAclEntry.Scope.fromCode(r.byteValue("SCOPE")), InodeAclEntry.Type.fromCode(r.byteValue("ENTRY_TYPE")),
          r.stringValue("NAME"), r.byteValue("PERMISSION"));
    }

    @Override
    public Key keyOf(InodeAclEntry e) {
      return new Key(e.inodeId(), e.position());
    }
  };

  private final IgniteRows<Key, InodeAclEntry> rows;

  IgniteAclTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.ACLS, client, session, MAPPING, IgniteRows.OnExisting.FAIL);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public Map<Long, List<InodeAclEntry>> ofInodes(Collection<Long> inodeIds) throws StoreException {
    Map<Long, List<InodeAclEntry>> acls = new LinkedHashMap<>();
    if (inodeIds.isEmpty()) {
      return acls;
    }
    for (List<Long> ids : IgniteSql.idLists(inodeIds)) {
      for (InodeAclEntry entry : rows.scanOfInodes(IgniteSchema.ACLS + "_PK", "WHERE INODE_ID IN ("
          + IgniteSql.placeholders(ids.size()) + ") ORDER BY INODE_ID, ENTRY_POSITION", LockMode.NONE,
          ids.toArray())) {
        acls.computeIfAbsent(entry.inodeId(), id -> new ArrayList<>()).add(entry);
      }
    }
    return acls;
  }

  @Override
  public void replace(long inodeId, List<InodeAclEntry> entries) {
    rows.deleteWhere("INODE_ID = ?", entry -> entry.inodeId() == inodeId, inodeId);
    for (InodeAclEntry entry : entries) {
      if (entry.inodeId() != inodeId) {
        throw new IllegalArgumentException("ACL entry " + entry + " does not belong to inode " + inodeId);
      }
      rows.put(MAPPING.keyOf(entry), entry);
    }
  }
}
