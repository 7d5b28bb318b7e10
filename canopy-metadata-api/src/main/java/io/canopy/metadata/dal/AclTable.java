package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.InodeAclEntry;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * POSIX ACL entries, partitioned by inode id. Read and written only for inodes whose permission marks an ACL, and
 * locked implicitly through their inode's lock (like blocks): a transaction changes an inode's ACL only while it
 * holds the inode exclusively.
 */
public interface AclTable {
  /**
   * The entries of each of {@code inodeIds} in position order, in one round trip; inodes without entries are absent
   * from the result.
   */
  Map<Long, List<InodeAclEntry>> ofInodes(Collection<Long> inodeIds) throws StoreException;

  /**
   * Replaces the whole ACL of {@code inodeId} with {@code entries} (each naming that inode, positions distinct);
   * an empty list removes it. Buffered until commit; the last call for an inode wins.
   */
  void replace(long inodeId, List<InodeAclEntry> entries);

  /** Removes every entry of {@code inodeId} (the inode is deleted, or its ACL removed). */
  default void deleteAll(long inodeId) {
    replace(inodeId, List.of());
  }
}
