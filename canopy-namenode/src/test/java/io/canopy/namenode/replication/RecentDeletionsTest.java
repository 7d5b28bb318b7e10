package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentDeletionsTest {
  private final AtomicLong now = new AtomicLong(1_000);

  @Test
  void deletionsAreRememberedPerBlockUntilTheyExpire() {
    RecentDeletions deletions = new RecentDeletions(now::get, 1_000, 100);
    deletions.add(1, "dn-a");
    now.addAndGet(600);
    deletions.add(1, "dn-b");
    deletions.add(2, "dn-a");
    assertEquals(Set.of("dn-a", "dn-b"), deletions.of(1));
    assertEquals(Set.of("dn-a"), deletions.of(2));
    now.addAndGet(500);
    assertEquals(Set.of("dn-b"), deletions.of(1));
    now.addAndGet(600);
    assertEquals(Set.of(), deletions.of(1));
    assertEquals(0, deletions.size());
  }

  @Test
  void theOldestAreForgottenBeyondTheBound() {
    RecentDeletions deletions = new RecentDeletions(now::get, 60_000, 3);
    for (long block = 1; block <= 5; block++) {
      deletions.add(block, "dn-a");
    }
    assertEquals(3, deletions.size());
    assertEquals(Set.of(), deletions.of(2));
    assertEquals(Set.of("dn-a"), deletions.of(3));
    deletions.add(3, "dn-a"); // again: moves to the newest
    deletions.add(6, "dn-a");
    assertEquals(Set.of("dn-a"), deletions.of(3));
    assertEquals(Set.of(), deletions.of(4));
  }
}
