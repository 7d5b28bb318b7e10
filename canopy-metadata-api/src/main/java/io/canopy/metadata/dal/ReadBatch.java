package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.ExtendedAttribute;
import io.canopy.metadata.entity.DirectoryQuota;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeKey;
import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.RetryEntry;
import io.canopy.metadata.entity.RetryKey;
import io.canopy.metadata.entity.UcReplica;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads sent to the store together, in one round trip, and executed in the order they were added: row locks are
 * taken in that order, and a read added after a locking read sees the state under that lock. In a read-only
 * transaction the whole batch sees one consistent committed state instead (see
 * {@link io.canopy.metadata.MetadataStore#beginReadOnly}). This is how the
 * transaction framework reads a whole path, locks it and prefetches a file's blocks at once (docs/references.md
 * [HopsFS-1M] Table I). Each method returns a handle whose value is available once {@link #execute()} returned.
 */
public interface ReadBatch {
  /** The value of one read of the batch. */
  interface Result<T> {
    /** The value; throws {@link IllegalStateException} before the batch executed. */
    T get();
  }

  /** Primary-key read of one inode. */
  Result<Optional<Inode>> inode(InodeKey key, LockMode lock);

  /**
   * Batched primary-key read of inodes, in one round trip. Unlocked reads ({@link LockMode#NONE}) added
   * one after another, by this method or {@link #inode}, may travel as one statement: that is how a whole path
   * costs one statement whatever its depth. Locked rows are read one statement each, in the order given: a row read
   * after waiting for another's lock must see what that lock's holder committed.
   */
  Result<Map<InodeKey, Inode>> inodes(List<InodeKey> keys, LockMode lock);

  /** Unique-key read of one inode by id. */
  Result<Optional<Inode>> inodeById(long inodeId, LockMode lock);

  /** Partition-scoped scan of a directory's children (see {@link InodeTable#children}). */
  Result<List<Inode>> children(long partitionId, long parentId, String startAfter, int limit, LockMode lock);

  /** Children of a directory that spreads them over partitions (see {@link InodeTable#spreadChildren}). */
  Result<List<Inode>> spreadChildren(long parentId, String startAfter, int limit, LockMode lock);

  /**
   * How many children of a directory come after {@code startAfter} in name order (null or empty: all), read without
   * a lock: what a listing page leaves for the next ones. Costs a scan of those names' index entries.
   */
  Result<Long> countChildren(long partitionId, long parentId, String startAfter);

  /** {@link #countChildren} for a directory that spreads its children over partitions. */
  Result<Long> countSpreadChildren(long parentId, String startAfter);

  /** A file's blocks ordered by index (locked implicitly through the file's inode). */
  Result<List<Block>> blocksOfFile(long inodeId);

  Result<List<Replica>> replicasOfFile(long inodeId);

  Result<List<UcReplica>> ucReplicasOfFile(long inodeId);

  /**
   * A file's database-resident bytes (design 016; see {@link SmallFileTable#get}), locked implicitly through the
   * file's inode; empty when it has none.
   */
  Result<Optional<byte[]>> smallFileData(long inodeId);

  /**
   * A file's blocks (ordered by index), replicas and pipeline replicas: what reading or writing a file needs; and, when
   * asked for ({@code smallDataRead}), its database-resident bytes ({@code smallData}, empty when it has none; always
   * empty when not asked for).
   */
  record FileRows(List<Block> blocks, List<Replica> replicas, List<UcReplica> ucReplicas, boolean smallDataRead,
      Optional<byte[]> smallData) {
    public FileRows {
      blocks = List.copyOf(blocks);
      replicas = List.copyOf(replicas);
      ucReplicas = List.copyOf(ucReplicas);
      if (!smallDataRead && smallData.isPresent()) {
        throw new IllegalArgumentException("small-file bytes given but not read");
      }
    }

    /** The rows of {@code rows} that belong to the blocks among {@code blockIds}. */
    public static FileRows ofBlocks(FileRows rows, Set<Long> blockIds) {
      return new FileRows(rows.blocks().stream().filter(b -> blockIds.contains(b.blockId())).toList(),
          rows.replicas().stream().filter(r -> blockIds.contains(r.blockId())).toList(),
          rows.ucReplicas().stream().filter(r -> blockIds.contains(r.blockId())).toList());
    }

    /** The rows without the database-resident bytes. */
    public FileRows(List<Block> blocks, List<Replica> replicas, List<UcReplica> ucReplicas) {
      this(blocks, replicas, ucReplicas, false, Optional.empty());
    }
  }

  /**
   * {@link #blocksOfFile}, {@link #replicasOfFile} and {@link #ucReplicasOfFile} of one file together; an engine may
   * read them with one statement, since every read of a file's data wants all three.
   */
  default Result<FileRows> fileRows(long inodeId) {
    return fileRows(inodeId, false);
  }

  /**
   * {@link #fileRows(long)} restricted to some of the file's blocks: the blocks among {@code blockIds} (ids the file
   * does not hold are left out) and their replicas and pipeline replicas. What applying a datanode's report of a few
   * blocks of a long file needs; an engine reads only those rows (this default reads the whole file and filters).
   */
  default Result<FileRows> fileRows(long inodeId, Set<Long> blockIds) {
    Result<FileRows> whole = fileRows(inodeId);
    return () -> FileRows.ofBlocks(whole.get(), blockIds);
  }

  /**
   * {@link #fileRows(long)}, with the file's database-resident bytes ({@link #smallFileData}) when
   * {@code withSmallData}: what reading a small file needs, which an engine may read in the same statement.
   */
  default Result<FileRows> fileRows(long inodeId, boolean withSmallData) {
    Result<List<Block>> blocks = blocksOfFile(inodeId);
    Result<List<Replica>> replicas = replicasOfFile(inodeId);
    Result<List<UcReplica>> ucReplicas = ucReplicasOfFile(inodeId);
    Result<Optional<byte[]>> small = withSmallData ? smallFileData(inodeId) : Optional::empty;
    return () -> new FileRows(blocks.get(), replicas.get(), ucReplicas.get(), withSmallData, small.get());
  }

  Result<Optional<Lease>> lease(String holder);

  Result<Optional<RetryEntry>> retryEntry(RetryKey key);

  /** An inode's extended attributes (see {@link XAttrTable#ofInode}), locked implicitly through the inode. */
  Result<List<ExtendedAttribute>> xattrsOf(long inodeId);

  /** Primary-key read of one directory's quota row (see {@link QuotaTable}). */
  Result<Optional<DirectoryQuota>> quota(long inodeId, LockMode lock);

  /** Whether any directory has a quota (see {@link QuotaTable#any()}). */
  Result<Boolean> anyQuota();

  /** A variable's numeric value, read without a lock (empty when unset). */
  Result<OptionalLong> longVariable(String name);

  boolean isEmpty();

  /** Sends every read added so far in one round trip. A batch executes once. */
  void execute() throws StoreException;
}
