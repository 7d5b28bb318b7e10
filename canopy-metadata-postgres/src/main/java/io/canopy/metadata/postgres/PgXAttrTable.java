package io.canopy.metadata.postgres;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.XAttrTable;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.ExtendedAttributeKey;
import io.canopy.metadata.entity.XAttrNamespace;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

final class PgXAttrTable implements XAttrTable, BufferedTable {
  private static final String COLUMNS = "inode_id, namespace, name, value";

  private final Jdbc jdbc;
  /** Pending writes per key: a value to put, or empty for a delete. */
  private final Map<ExtendedAttributeKey, Optional<ExtendedAttribute>> pending = new LinkedHashMap<>();
  /** Inodes whose attributes all go; sorted, so concurrent deletes lock rows in one order. */
  private final TreeSet<Long> cleared = new TreeSet<>();

  PgXAttrTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  static Jdbc.Part<ExtendedAttribute> ofInodePart(long inodeId) {
    return new Jdbc.Part<>("SELECT " + COLUMNS + " FROM xattrs WHERE inode_id = ? ORDER BY namespace, name",
        s -> s.setLong(1, inodeId), PgXAttrTable::map);
  }

  @Override
  public List<ExtendedAttribute> ofInode(long inodeId) throws StoreException {
    return jdbc.run(ofInodePart(inodeId));
  }

  @Override
  public void put(ExtendedAttribute attribute) {
    pending.put(attribute.key(), Optional.of(attribute));
  }

  @Override
  public void delete(ExtendedAttributeKey key) {
    pending.put(key, Optional.empty());
  }

  @Override
  public void deleteOfInodes(Collection<Long> inodeIds) {
    cleared.addAll(inodeIds);
    // the clearing statement runs first at flush: writes queued before it for these inodes are superseded
    pending.keySet().removeIf(key -> inodeIds.contains(key.inodeId()));
  }

  @Override
  public void flush() {
    // one statement for the whole set, however many inodes a recursive delete removed
    jdbc.deleteWhereAny("xattrs", "inode_id", cleared);
    List<ExtendedAttributeKey> deletes = new ArrayList<>();
    List<ExtendedAttribute> puts = new ArrayList<>();
    pending.forEach((key, value) -> value.ifPresentOrElse(puts::add, () -> deletes.add(key)));
    jdbc.batch("DELETE FROM xattrs WHERE inode_id = ? AND namespace = ? AND name = ?", deletes, (s, key) -> {
      s.setLong(1, key.inodeId());
      s.setShort(2, (short) key.namespace().code());
      s.setString(3, key.name());
    });
    jdbc.batch("INSERT INTO xattrs (" + COLUMNS + ") VALUES (?, ?, ?, ?) ON CONFLICT (inode_id, namespace, name) "
        + "DO UPDATE SET value = EXCLUDED.value", puts, (s, a) -> {
          s.setLong(1, a.inodeId());
          s.setShort(2, (short) a.namespace().code());
          s.setString(3, a.name());
          s.setBytes(4, a.value());
        });
    clear();
  }

  @Override
  public void clear() {
    pending.clear();
    cleared.clear();
  }

  private static ExtendedAttribute map(ResultSet r) throws SQLException {
    return new ExtendedAttribute(r.getLong(1), XAttrNamespace.fromCode(r.getShort(2)), r.getString(3),
        r.getBytes(4));
  }
}
