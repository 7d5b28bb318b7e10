package io.canopy.namenode.smallfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The copies getBlockLocations leaves for the endpoint: exact versions only, bounded in bytes and time. */
class SmallBlockCacheTest {
  private final AtomicLong nanos = new AtomicLong();

  private SmallBlockCache cache(long maxBytes) {
    return new SmallBlockCache(maxBytes, Duration.ofSeconds(30), nanos::get);
  }

  @Test
  void aCopyAnswersOnlyItsOwnGenerationStamp() {
    SmallBlockCache cache = cache(1 << 20);
    cache.offer(-20, new SmallBlock(new byte[] {1, 2, 3}, 1005));
    assertArrayEquals(new byte[] {1, 2, 3}, cache.find(-20, 1005).orElseThrow().data());
    assertEquals(Optional.empty(), cache.find(-20, 1006), "a newer version asked: the database answers");
    assertEquals(Optional.empty(), cache.find(-20, 1004), "an older version asked: the database answers");
    assertEquals(Optional.empty(), cache.find(-21, 1005));
  }

  @Test
  void copiesExpireAndTheByteBoundHolds() {
    SmallBlockCache cache = cache(1 << 20);
    cache.offer(-20, new SmallBlock(new byte[10], 1));
    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertEquals(Optional.empty(), cache.find(-20, 1), "past its time");
    SmallBlockCache small = cache(100_000);
    for (int i = 1; i <= 10; i++) {
      small.offer(-i, new SmallBlock(new byte[30_000], 1));
    }
    int kept = 0;
    for (int i = 1; i <= 10; i++) {
      kept += small.find(-i, 1).isPresent() ? 1 : 0;
    }
    assertTrue(kept <= 3, "at most 100,000 bytes: " + kept + " copies of 30,000 kept");
    assertEquals(Optional.empty(), cache(0).find(-1, 1));
  }

  @Test
  void theNamenodesSourceReadsTheDatabaseUnlessItHoldsTheVersionAsked() throws Exception {
    SmallBlockCache cache = cache(1 << 20);
    AtomicInteger databaseReads = new AtomicInteger();
    SmallBlockSource database = id -> {
      databaseReads.incrementAndGet();
      return Optional.of(new SmallBlock(new byte[] {9}, 1007));
    };
    DatabaseSmallBlocks source = new DatabaseSmallBlocks(database, cache);
    cache.offer(-30, new SmallBlock(new byte[] {7}, 1006));
    assertArrayEquals(new byte[] {7}, source.read(-30, 1006).orElseThrow().data());
    assertEquals(0, databaseReads.get());
    assertArrayEquals(new byte[] {9}, source.read(-30, 1007).orElseThrow().data(), "rewritten since: the database");
    assertEquals(1, databaseReads.get());
  }
}
