package io.canopy.namenode.smallfiles;

import java.io.IOException;
import java.util.Optional;

/**
 * The namenode's {@link SmallBlockSource}: the copy getBlockLocations left in the {@link SmallBlockCache} when it is
 * of the version asked, else the database, through {@code database} (a read-only transaction).
 */
public final class DatabaseSmallBlocks implements SmallBlockSource {
  private final SmallBlockSource database;
  private final SmallBlockCache cache;

  public DatabaseSmallBlocks(SmallBlockSource database, SmallBlockCache cache) {
    this.database = database;
    this.cache = cache;
  }

  @Override
  public Optional<SmallBlock> read(long blockId) throws IOException {
    return database.read(blockId);
  }

  @Override
  public Optional<SmallBlock> read(long blockId, long askedGenerationStamp) throws IOException {
    Optional<SmallBlock> kept = cache.find(blockId, askedGenerationStamp);
    return kept.isPresent() ? kept : database.read(blockId);
  }
}
