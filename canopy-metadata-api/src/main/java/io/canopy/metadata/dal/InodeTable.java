package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Inodes, keyed by (partition id, parent id, name). */
public interface InodeTable {
  /** Primary-key read. */
  Optional<Inode> get(InodeKey key, LockMode lock) throws StoreException;

  /** Batched primary-key read in one round trip; missing keys are absent from the result. */
  Map<InodeKey, Inode> getAll(List<InodeKey> keys, LockMode lock) throws StoreException;

  /** Unique-key read by inode id (for block reports and file ids). */
  Optional<Inode> getById(long inodeId, LockMode lock) throws StoreException;

  /**
   * Partition-scoped scan of a directory's children in byte order of name, starting after {@code startAfter}
   * (null or empty: from the first), at most {@code limit} rows.
   */
  List<Inode> children(long partitionId, long parentId, String startAfter, int limit, LockMode lock)
      throws StoreException;

  /**
   * The children of a directory that spreads its children over partitions ({@link Inode#spreadsChildren()}, the
   * top levels): the one index scan across partitions the namespace code may use, as HopsFS lists the root.
   */
  List<Inode> spreadChildren(long parentId, String startAfter, int limit, LockMode lock) throws StoreException;

  void insert(Inode inode);

  /** Updates the row with the inode's key; the key must not change (move = delete + insert). */
  void update(Inode inode);

  void delete(InodeKey key);
}
