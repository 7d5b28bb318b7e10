package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.DirectoryQuota;
import java.util.List;
import java.util.Optional;

/**
 * Directory quotas and their usage, keyed by the directory's inode id (one row per directory whose inode has
 * {@link io.canopy.metadata.entity.Inode#hasQuota()}). Operations lock the rows of a path's quota directories after
 * the path's inodes, in inode id order.
 */
public interface QuotaTable {
  /** Primary-key read. */
  Optional<DirectoryQuota> get(long inodeId, LockMode lock) throws StoreException;

  /** Whether any directory has a quota at all (operations on a file locked by id skip quota work when none does). */
  boolean any() throws StoreException;

  /** Up to {@code limit} rows in inode id order after {@code afterInodeId} (checks and tools; no lock). */
  List<DirectoryQuota> page(long afterInodeId, int limit) throws StoreException;

  void insert(DirectoryQuota quota);

  void update(DirectoryQuota quota);

  void delete(long inodeId);
}
