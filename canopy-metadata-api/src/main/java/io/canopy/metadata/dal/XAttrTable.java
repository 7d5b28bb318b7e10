package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.ExtendedAttributeKey;
import java.util.Collection;
import java.util.List;

/**
 * Extended attributes, partitioned by inode id. They are locked implicitly through their inode: readers hold the
 * inode at least shared, writers exclusively.
 */
public interface XAttrTable {
  /** Partition-scoped scan of one inode's attributes, ordered by namespace code then name (UTF-8 byte order). */
  List<ExtendedAttribute> ofInode(long inodeId) throws StoreException;

  /** Inserts the attribute or replaces the value of the one with its key. */
  void put(ExtendedAttribute attribute);

  void delete(ExtendedAttributeKey key);

  /**
   * Removes every attribute of these inodes (they are being deleted), without reading them first; attributes put
   * for them earlier in the transaction go too, those put later stay.
   */
  void deleteOfInodes(Collection<Long> inodeIds);
}
