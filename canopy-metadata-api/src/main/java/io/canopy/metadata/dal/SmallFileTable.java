package io.canopy.metadata.dal;

import io.canopy.metadata.StoreException;
import java.util.Collection;
import java.util.Optional;

/**
 * The bytes of small files, stored with their metadata (docs/references.md [SmallFiles] s.5), partitioned by inode
 * id. They are locked implicitly through their file's inode: readers hold it at least shared, writers exclusively.
 * How the bytes are laid out (tiers, chunks) is the engine's business; a file's bytes are written and read whole.
 * Writes are buffered and sent at commit, like every table's.
 */
public interface SmallFileTable {
  /** The file's bytes, or empty when none are stored for it (its data is on datanodes, or it has none yet). */
  Optional<byte[]> get(long inodeId) throws StoreException;

  /** Stores {@code data} as the file's bytes, replacing whatever was stored for it. */
  void put(long inodeId, byte[] data);

  /**
   * Stores the bytes of a file that has none stored (it was just created, or its data was never in the database;
   * the caller knows from the file's block rows): unlike {@link #put} nothing is cleared first. Calling it for a file
   * that holds bytes breaks that precondition: an engine fails the commit where it can tell (PostgreSQL: a primary key
   * of the same tier), and a read then reports the file's rows in two tiers as an invariant violation.
   */
  void insert(long inodeId, byte[] data);

  /** Removes the file's bytes, if any. */
  void delete(long inodeId);

  /**
   * Removes the bytes of these files (they are being deleted or moved to datanodes), without reading them first;
   * bytes put for them earlier in the transaction go too, those put later stay.
   */
  void deleteOfInodes(Collection<Long> inodeIds);
}
