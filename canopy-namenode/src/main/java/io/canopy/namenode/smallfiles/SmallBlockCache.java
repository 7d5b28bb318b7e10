package io.canopy.namenode.smallfiles;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Optional;

/**
 * The bytes of database-resident blocks that getBlockLocations just read for a stock client, kept for the read of
 * the block that follows on this namenode's endpoint (design 016): the read then costs no transaction. An entry
 * answers only a read of exactly its generation stamp (every rewrite of a small file changes it, so an entry never
 * stands for other bytes than those read), and lives at most {@code ttl}: a reader holding locations from before
 * a delete may read the old bytes that long, as it may read a deleted block from a datanode until the datanode
 * deletes it. Bounded in bytes; a miss reads the database.
 */
public final class SmallBlockCache {
  /** What an entry costs beyond its bytes (key, record, the cache's node), for the byte bound. */
  private static final int ENTRY_OVERHEAD = 96;

  private final Cache<Long, SmallBlock> entries;

  /** At most {@code maxBytes} of blocks, each for at most {@code ttl}, timed by {@code ticker}. */
  public SmallBlockCache(long maxBytes, Duration ttl, Ticker ticker) {
    if (maxBytes < 0 || ttl.isNegative()) {
      throw new IllegalArgumentException("small block cache of " + maxBytes + " bytes for " + ttl);
    }
    this.entries = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .weigher((Long id, SmallBlock block) -> block.data().length + ENTRY_OVERHEAD)
        .expireAfterWrite(ttl)
        .ticker(ticker)
        .executor(Runnable::run) // maintenance on the caller's thread: no pool of its own
        .build();
  }

  /** Keeps the bytes of block {@code blockId} as just read from the database. */
  public void offer(long blockId, SmallBlock block) {
    entries.put(blockId, block);
  }

  /** The block's bytes if they are kept at exactly {@code generationStamp}. */
  public Optional<SmallBlock> find(long blockId, long generationStamp) {
    SmallBlock kept = entries.getIfPresent(blockId);
    return kept != null && kept.generationStamp() == generationStamp ? Optional.of(kept) : Optional.empty();
  }

  /** Forgets every entry (tests). */
  void clear() {
    entries.invalidateAll();
  }
}
