package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class WorkingSetTest {
  private static List<PathEntry> entries(int count) {
    List<PathEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      entries.add(new PathEntry(new Path("/base/f" + i), false));
    }
    return entries;
  }

  @Test
  void picksAreCloseToUniform() {
    WorkingSet set = new WorkingSet("file", entries(4080));
    assertEquals(64, set.stripeCount());
    Map<Path, Integer> counts = new HashMap<>();
    Random random = new Random(11);
    int picks = 4080 * 200;
    for (int i = 0; i < picks; i++) {
      counts.merge(set.pick(random).path(), 1, Integer::sum);
    }
    assertEquals(4080, counts.size());
    counts.values().forEach(count -> assertTrue(count > 100 && count < 300, "count " + count));
  }

  @Test
  void removedEntriesAreNeverPickedAndAnEmptySetPicksNull() {
    List<PathEntry> entries = entries(100);
    WorkingSet set = new WorkingSet("file", entries);
    Random random = new Random(5);
    for (int i = 0; i < 99; i++) {
      PathEntry entry = entries.get(i);
      assertTrue(entry.lockExclusive());
      set.remove(entry);
      entry.unlockExclusive();
      assertFalse(entry.lockShared(), "a removed entry cannot be locked");
    }
    assertEquals(1, set.size());
    for (int i = 0; i < 100; i++) {
      assertEquals(entries.get(99), set.pick(random));
    }
    assertTrue(entries.get(99).lockExclusive());
    set.remove(entries.get(99));
    entries.get(99).unlockExclusive();
    assertNull(set.pick(random));
    PathEntry added = new PathEntry(new Path("/base/new"), true);
    set.add(added);
    assertEquals(added, set.pick(random));
  }

  @Test
  void concurrentAddsPicksAndRemovesKeepTheCount() throws Exception {
    WorkingSet set = new WorkingSet("file", entries(1000));
    int threads = 8;
    Map<PathEntry, Boolean> removedByTest = new ConcurrentHashMap<>();
    AtomicInteger added = new AtomicInteger();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      new Thread(() -> {
        Random random = new Random(thread);
        try {
          runThread(set, random, thread, removedByTest, added);
        } catch (Throwable e) {
          errors.add(e);
        } finally {
          done.countDown();
        }
      }).start();
    }
    done.await();
    assertEquals(List.of(), errors);
    assertEquals(1000 + added.get() - removedByTest.size(), set.size());
  }

  private static void runThread(WorkingSet set, Random random, int thread, Map<PathEntry, Boolean> removedByTest,
      AtomicInteger added) {
    for (int i = 0; i < 20_000; i++) {
      PathEntry entry = set.pick(random);
      assertNotNull(entry);
      if (i % 3 == 0) {
        if (entry.lockExclusive()) {
          set.remove(entry);
          removedByTest.put(entry, true);
          entry.unlockExclusive();
        }
        set.add(new PathEntry(new Path("/base/t" + thread + "-" + i), true));
        added.incrementAndGet();
      } else if (entry.lockShared()) {
        assertFalse(entry.removed());
        entry.unlockShared();
      }
    }
  }
}
