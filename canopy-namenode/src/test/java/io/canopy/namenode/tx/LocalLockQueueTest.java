package io.canopy.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.entity.InodeKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LocalLockQueueTest {
  private static final LocalLockQueue.Key DIR = LocalLockQueue.Key.of(new InodeKey(7, 1, "dir"));
  private static final LocalLockQueue.Key OTHER = LocalLockQueue.Key.of(new InodeKey(3, 1, "other"));
  private static final LocalLockQueue.Key FILE = LocalLockQueue.Key.byId(42);

  private final ExecutorService threads = Executors.newFixedThreadPool(8);

  @AfterEach
  void stop() throws InterruptedException {
    threads.shutdownNow();
    assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
  }

  @Test
  void exclusiveHoldersOfOneRowTakeTurnsAndNoneIsRefused() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(10_000);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    List<Future<?>> runs = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      runs.add(threads.submit(() -> {
        for (int i = 0; i < 50; i++) {
          try (LocalLockQueue.Held held = queue.open()) {
            held.lock(Map.of(DIR, LockMode.EXCLUSIVE, OTHER, LockMode.SHARED));
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            Thread.yield();
            inside.decrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> run : runs) {
      run.get(60, TimeUnit.SECONDS); // a refusal would fail here
    }
    assertEquals(1, mostInside.get(), "one exclusive holder at a time");
    assertEquals(0, queue.size(), "keys nobody holds are forgotten");
  }

  @Test
  void sharedHoldersShareAndNoneLocksNothing() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(10_000);
    try (LocalLockQueue.Held first = queue.open()) {
      first.lock(Map.of(DIR, LockMode.SHARED, FILE, LockMode.NONE));
      Future<Integer> other = threads.submit(() -> {
        try (LocalLockQueue.Held second = queue.open()) {
          second.lock(Map.of(DIR, LockMode.SHARED));
          return queue.size();
        }
      });
      assertEquals(1, other.get(10, TimeUnit.SECONDS), "a key wanted without a lock is not queued for");
    }
    assertEquals(0, queue.size());
  }

  @Test
  void aWaitPastTheBoundIsRefusedAsTheDatabaseWouldRefuseIt() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(50);
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<?> holder = threads.submit(() -> {
      try (LocalLockQueue.Held mine = queue.open()) {
        mine.lock(Map.of(DIR, LockMode.EXCLUSIVE));
        held.countDown();
        release.await();
      }
      return null;
    });
    assertTrue(held.await(10, TimeUnit.SECONDS));
    try (LocalLockQueue.Held waiting = queue.open()) {
      LockConflictException refused = assertThrows(LockConflictException.class,
          () -> waiting.lock(Map.of(OTHER, LockMode.EXCLUSIVE, DIR, LockMode.SHARED)));
      assertTrue(refused.getMessage().contains("50 ms") && refused.getMessage().contains("'dir' in directory 1"),
          refused.getMessage());
      assertFalse(refused.outcomeUnknown(), "nothing of the run took effect");
    }
    assertEquals(1, queue.size(), "the refused request's keys are given back; the holder's stays");
    release.countDown();
    holder.get(10, TimeUnit.SECONDS);
    assertEquals(0, queue.size());
  }

  @Test
  void quotaRowsAndInodesByIdAreKeysOfTheirOwn() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(50);
    try (LocalLockQueue.Held first = queue.open()) {
      first.lock(Map.of(LocalLockQueue.Key.quota(7), LockMode.EXCLUSIVE, LocalLockQueue.Key.byId(7), LockMode.SHARED));
      Future<String> other = threads.submit(() -> {
        try (LocalLockQueue.Held second = queue.open()) {
          second.lock(Map.of(LocalLockQueue.Key.quota(7), LockMode.EXCLUSIVE));
          return "granted";
        } catch (LockConflictException refused) {
          return refused.getMessage();
        }
      });
      String answer = other.get(10, TimeUnit.SECONDS);
      assertTrue(answer.contains("the quota row of directory 7"), answer);
      assertEquals(2, queue.size());
    }
    assertEquals(0, queue.size());
  }

  @Test
  void transactionsWantingTheSameRowsInOppositeOrdersDoNotDeadlock() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(10_000);
    List<Future<?>> runs = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      List<LocalLockQueue.Key> keys = new ArrayList<>(List.of(DIR, OTHER, FILE));
      if (t % 2 == 1) {
        Collections.reverse(keys);
      }
      runs.add(threads.submit(() -> {
        for (int i = 0; i < 200; i++) {
          try (LocalLockQueue.Held held = queue.open()) {
            Map<LocalLockQueue.Key, LockMode> wanted = new LinkedHashMap<>();
            keys.forEach(key -> wanted.put(key, LockMode.EXCLUSIVE));
            held.lock(wanted);
          }
        }
        return null;
      }));
    }
    for (Future<?> run : runs) {
      run.get(60, TimeUnit.SECONDS);
    }
    assertEquals(0, queue.size());
  }

  @Test
  void oneCallPerTransactionAndTheEnginesOwnQueueTakesNothing() throws Exception {
    LocalLockQueue queue = new LocalLockQueue(10_000);
    try (LocalLockQueue.Held held = queue.open()) {
      held.lock(Map.of(DIR, LockMode.EXCLUSIVE));
      assertThrows(IllegalStateException.class, () -> held.lock(Map.of(OTHER, LockMode.EXCLUSIVE)));
    }
    try (LocalLockQueue.Held a = LocalLockQueue.NONE.open()) {
      a.lock(Map.of(DIR, LockMode.EXCLUSIVE));
      Future<?> other = threads.submit(() -> {
        try (LocalLockQueue.Held b = LocalLockQueue.NONE.open()) {
          b.lock(Map.of(DIR, LockMode.EXCLUSIVE)); // another thread: on a real queue it would wait for a
        }
        return null;
      });
      other.get(10, TimeUnit.SECONDS);
      assertEquals(0, LocalLockQueue.NONE.size(), "the engine's own queue keeps no keys");
    }
    assertThrows(IllegalArgumentException.class, () -> new LocalLockQueue(0));
  }
}
