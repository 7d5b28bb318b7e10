package io.canopy.metadata.ignite;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.XAttrTable;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.ExtendedAttributeKey;
import io.canopy.metadata.entity.XAttrNamespace;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.Tuple;

/** {@code CANOPY_XATTRS}: extended attributes, colocated by inode id. */
final class IgniteXAttrTable implements XAttrTable {
  /** The DAL's order: namespace code, then the name's UTF-8 bytes (not Java's UTF-16 order). */
  static final Comparator<ExtendedAttribute> ORDER = Comparator
      .<ExtendedAttribute>comparingInt(a -> a.namespace().code())
      .thenComparing((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
          b.name().getBytes(StandardCharsets.UTF_8)));

  private static final IgniteRows.Mapping<ExtendedAttributeKey, ExtendedAttribute> MAPPING = new IgniteRows.Mapping<>() {
    @Override
    public Tuple key(ExtendedAttributeKey key) {
      return Tuple.create(3).set("INODE_ID", key.inodeId()).set("NAMESPACE", (byte) key.namespace().code())
          .set("NAME", key.name());
    }

    @Override
    public Tuple row(ExtendedAttribute a) {
      return key(keyOf(a)).set("VAL", a.value());
    }

    @Override
    public ExtendedAttribute read(Tuple r) {
      return new ExtendedAttribute(r.longValue("INODE_ID"), XAttrNamespace.fromCode(r.byteValue("NAMESPACE")),
          r.stringValue("NAME"), r.bytesValue("VAL"));
    }

    @Override
    public ExtendedAttributeKey keyOf(ExtendedAttribute a) {
      return new ExtendedAttributeKey(a.inodeId(), a.namespace(), a.name());
    }
  };

  private final IgniteRows<ExtendedAttributeKey, ExtendedAttribute> rows;

  IgniteXAttrTable(IgniteClient client, IgniteSession session) {
    rows = new IgniteRows<>(IgniteSchema.XATTRS, client, session, MAPPING, IgniteRows.OnExisting.REPLACE);
  }

  IgniteRows<?, ?> rows() {
    return rows;
  }

  @Override
  public List<ExtendedAttribute> ofInode(long inodeId) throws StoreException {
    List<ExtendedAttribute> attributes = new ArrayList<>(rows.scanOfInodes(IgniteSchema.byInode(IgniteSchema.XATTRS),
        "WHERE INODE_ID = ?", LockMode.NONE, inodeId));
    attributes.sort(ORDER);
    return attributes;
  }

  @Override
  public void put(ExtendedAttribute attribute) {
    rows.put(MAPPING.keyOf(attribute), attribute);
  }

  @Override
  public void delete(ExtendedAttributeKey key) {
    rows.delete(key);
  }

  @Override
  public void deleteOfInodes(Collection<Long> inodeIds) {
    if (inodeIds.isEmpty()) {
      return;
    }
    for (List<Long> list : IgniteSql.idLists(inodeIds)) {
      Set<Long> ids = Set.copyOf(list);
      rows.deleteWhere("INODE_ID IN (" + IgniteSql.placeholders(ids.size()) + ")", a -> ids.contains(a.inodeId()),
          list.toArray());
    }
  }
}
