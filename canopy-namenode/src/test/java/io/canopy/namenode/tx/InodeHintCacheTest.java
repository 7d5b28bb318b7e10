package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.Inode;
import org.junit.jupiter.api.Test;

class InodeHintCacheTest {
  private static final long ROOT_ID = 1;

  private static Inode directory(long id, long parentId, String name) {
    return Inode.builder().id(id).partitionId(parentId).parentId(parentId).name(name).directory(true)
        .permission((short) 0755).owner("owner").group("group").build();
  }

  @Test
  void storesLooksUpAndInvalidates() {
    InodeHintCache cache = new InodeHintCache(100);
    assertNull(cache.get(ROOT_ID, "a"));
    cache.put(directory(10, ROOT_ID, "a"));
    assertEquals(new InodeHintCache.Hint(10, ROOT_ID, false, false, true), cache.get(ROOT_ID, "a"));
    assertNull(cache.get(ROOT_ID, "b"), "another name");
    assertNull(cache.get(11, "a"), "another parent");
    cache.put(directory(12, ROOT_ID, "a").withQuota(true));
    assertEquals(new InodeHintCache.Hint(12, ROOT_ID, false, true, true), cache.get(ROOT_ID, "a"),
        "the newest row wins");
    cache.invalidate(ROOT_ID, "a");
    assertNull(cache.get(ROOT_ID, "a"));
    assertEquals(0, cache.size());
  }

  @Test
  void staysWithinItsBoundAndKeepsWhatIsLookedUp() {
    int bound = 160;
    InodeHintCache cache = new InodeHintCache(bound);
    cache.put(directory(1_000, ROOT_ID, "hot"));
    for (int i = 0; i < 10 * bound; i++) {
      assertNotNull(cache.get(ROOT_ID, "hot"), "a hint looked up between stores survives every eviction, store " + i);
      cache.put(directory(2_000 + i, ROOT_ID, "cold-" + i));
      assertTrue(cache.size() <= bound, "size " + cache.size() + " after store " + i);
    }
    assertTrue(cache.size() >= bound - bound * InodeHintCache.EVICTION_HEADROOM - 1,
        "an eviction pass frees only its headroom, size " + cache.size());
    assertNotNull(cache.get(ROOT_ID, "cold-" + (10 * bound - 1)), "the newest store is kept");
  }

  @Test
  void refusesAnEmptyBound() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> new InodeHintCache(0));
    assertTrue(error.getMessage().contains("canopy.namenode.hint-cache.size"), error.getMessage());
  }

  @Test
  void keysAndHintsAreEqualByValue() {
    InodeHintCache.Key key = new InodeHintCache.Key(7, new String("name"));
    InodeHintCache.Key same = new InodeHintCache.Key(7, "name");
    assertEquals(key, same);
    assertEquals(key.hashCode(), same.hashCode());
    assertNotEquals(key, new InodeHintCache.Key(8, "name"));
    assertNotEquals(key, new InodeHintCache.Key(7, "other"));
    InodeHintCache.Hint hint = new InodeHintCache.Hint(1, 2, true, false, false);
    assertEquals(hint, new InodeHintCache.Hint(1, 2, true, false, false));
    assertEquals(hint.hashCode(), new InodeHintCache.Hint(1, 2, true, false, false).hashCode());
    assertNotEquals(hint, new InodeHintCache.Hint(1, 2, false, false, false));
    assertNotEquals(hint, new InodeHintCache.Hint(1, 2, true, true, false));
    assertNotEquals(hint, new InodeHintCache.Hint(1, 3, true, false, false));
    assertNotEquals(hint, new InodeHintCache.Hint(4, 2, true, false, false));
    assertNotEquals(hint, new InodeHintCache.Hint(1, 2, true, false, true));
  }
}
