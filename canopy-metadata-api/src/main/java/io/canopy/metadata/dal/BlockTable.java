package io.canopy.metadata.dal;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockKey;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Blocks of files, partitioned by inode id. Locked implicitly through their inode's lock. */
public interface BlockTable {
  Optional<Block> get(BlockKey key) throws StoreException;

  /** Partition-scoped scan of a file's blocks, ordered by index. */
  List<Block> ofFile(long inodeId) throws StoreException;

  /** The blocks of several files in one round trip, ordered by inode id then index. */
  List<Block> ofFiles(Collection<Long> inodeIds) throws StoreException;

  void insert(Block block);

  void update(Block block);

  void delete(BlockKey key);
}
