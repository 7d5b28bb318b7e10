package io.canopy.namenode.tx;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.dal.ReadBatch;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.metadata.entity.Lease;
import io.canopy.namenode.fs.FsPath;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One transaction's cache of what it read and locked (the papers' per-transaction cache): filled by the
 * {@link LockPlanner} in the lock round trip, read and kept current by the {@link TransactionContext} as the
 * operation reads and writes. Rows read once are not read again within the transaction.
 */
final class RowCache {
  /** The lock this transaction holds on each inode it locked, by inode id. */
  final Map<Long, LockMode> locks = new HashMap<>();
  /** The paths of the lock request as resolved (the locked version of each locked component). */
  final Map<FsPath, ResolvedPath> resolved = new HashMap<>();
  /** Files' block-level rows, read with the locks or on demand, by inode id. */
  final Map<Long, ReadBatch.Result<FileData>> fileData = new HashMap<>();
  /** Some blocks' rows of a file ({@link LockRequest#withFileBlocks}), by inode id: never taken for the whole file. */
  final Map<Long, FileBlocks> fileBlocks = new HashMap<>();
  /** Pages of children read with the locks, taken (once) by the operation that declared them. */
  final Map<ChildrenPage, ReadBatch.Result<List<Inode>>> childrenPages = new HashMap<>();
  /** Extended attributes read, by inode id; dropped when the operation changes them. */
  final Map<Long, ReadBatch.Result<List<ExtendedAttribute>>> xattrs = new HashMap<>();
  /** ACL entries read or written in this transaction, by inode id (empty: the inode has none). */
  final Map<Long, List<InodeAclEntry>> acls = new HashMap<>();
  /** The lease read with the locks, when the request asked for one. */
  ReadBatch.Result<Optional<Lease>> lease;
  /** The inode locked by id, or null (none asked, or it does not exist). */
  Inode lockedById;

  /** The lock held on an inode: NONE when the transaction did not lock it. */
  LockMode lockOf(long inodeId) {
    return locks.getOrDefault(inodeId, LockMode.NONE);
  }

  /** Records a lock taken on an inode; a row keeps the strongest lock taken on it. */
  void noteLock(long inodeId, LockMode mode) {
    locks.merge(inodeId, mode, RowCache::stronger);
  }

  void prefetchFileData(ReadBatch batch, long inodeId, boolean withSmallData) {
    ReadBatch.Result<ReadBatch.FileRows> rows = batch.fileRows(inodeId, withSmallData);
    FileData[] split = new FileData[1]; // split into good and corrupt replicas once, however often it is asked
    this.fileData.put(inodeId, () -> split[0] != null ? split[0] : (split[0] = FileData.of(rows.get())));
  }

  void prefetchFileBlocks(ReadBatch batch, long inodeId, Set<Long> blockIds) {
    ReadBatch.Result<ReadBatch.FileRows> rows = batch.fileRows(inodeId, blockIds);
    FileData[] split = new FileData[1];
    fileBlocks.put(inodeId, new FileBlocks(blockIds,
        () -> split[0] != null ? split[0] : (split[0] = FileData.of(rows.get()))));
  }

  /** The rows of the blocks among {@code blockIds} of a file, read (or to be read) by one batch. */
  record FileBlocks(Set<Long> blockIds, ReadBatch.Result<FileData> rows) {
  }

  static LockMode stronger(LockMode a, LockMode b) {
    return a.covers(b) ? a : b;
  }
}
