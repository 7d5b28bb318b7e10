package io.canopy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.StandbyException;
import org.junit.jupiter.api.Test;

class NamenodeSelectorTest {
  private static final long SEED = 20240501L;
  private static final long AVOID_MS = 1_000;
  private static final List<String> SEEDS = List.of("a:1", "b:2", "c:3");

  private final AtomicLong clock = new AtomicLong(1_000_000);

  private NamenodeSelector selector(SelectionPolicy policy, int locationDomainId) {
    System.out.println("seed " + SEED);
    return new NamenodeSelector(policy, locationDomainId, AVOID_MS, clock::get, new Random(SEED), SEEDS);
  }

  private static List<String> calls(NamenodeSelector selector, int count) {
    List<String> chosen = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      chosen.add(selector.choose());
    }
    return chosen;
  }

  @Test
  void roundRobinGoesToEachNamenodeInTurnAndSkipsAFailedOne() {
    NamenodeSelector selector = selector(SelectionPolicy.ROUND_ROBIN, 0);
    assertEquals(List.of("a:1", "b:2", "c:3", "a:1", "b:2", "c:3"), calls(selector, 6));
    selector.failed("b:2");
    assertEquals(Set.of("a:1", "c:3"), new HashSet<>(calls(selector, 6)));
    assertEquals(3, calls(selector, 6).stream().filter("a:1"::equals).count(), "the two others share the calls");
    clock.addAndGet(AVOID_MS);
    assertEquals(Set.of("a:1", "b:2", "c:3"), new HashSet<>(calls(selector, 3)), "b is back once avoided long enough");
  }

  @Test
  void randomSpreadsCallsEvenlyAndTheSeedFixesTheSequence() {
    NamenodeSelector selector = selector(SelectionPolicy.RANDOM, 0);
    List<String> chosen = calls(selector, 3000);
    Map<String, Integer> counts = new HashMap<>();
    chosen.forEach(address -> counts.merge(address, 1, Integer::sum));
    assertEquals(SEEDS.size(), counts.size());
    counts.forEach((address, count) -> assertTrue(count > 900 && count < 1100, address + " got " + count));
    long changes = 0;
    for (int i = 1; i < chosen.size(); i++) {
      changes += chosen.get(i).equals(chosen.get(i - 1)) ? 0 : 1;
    }
    assertTrue(changes > 1800, "consecutive calls mostly go to different namenodes, changed " + changes);
    assertEquals(chosen, calls(selector(SelectionPolicy.RANDOM, 0), 3000), "same seed, same choices");
  }

  @Test
  void randomStickyStaysOnOneNamenodeUntilItFails() {
    NamenodeSelector selector = selector(SelectionPolicy.RANDOM_STICKY, 0);
    String first = selector.choose();
    assertEquals(List.of(first, first, first, first), calls(selector, 4));
    selector.failed(first);
    selector.failover();
    String second = selector.current();
    assertNotEquals(first, second);
    clock.addAndGet(AVOID_MS);
    assertEquals(List.of(second, second, second), calls(selector, 3), "sticks to the new one when the old is back");
  }

  @Test
  void randomStickyPicksDifferentNamenodesForDifferentSeeds() {
    Set<String> firstChoices = new HashSet<>();
    for (long seed = 0; seed < 30; seed++) {
      firstChoices.add(new NamenodeSelector(SelectionPolicy.RANDOM_STICKY, 0, AVOID_MS, clock::get,
          new Random(seed), SEEDS).choose());
    }
    assertEquals(new HashSet<>(SEEDS), firstChoices);
  }

  @Test
  void stickyTakesTheFirstThenTheNextAndGoesRoundWhenAllFailed() {
    NamenodeSelector selector = selector(SelectionPolicy.STICKY, 0);
    assertEquals(List.of("a:1", "a:1"), calls(selector, 2));
    List<String> visited = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      selector.failed(selector.current());
      selector.failover();
      visited.add(selector.choose());
    }
    assertEquals(List.of("b:2", "c:3", "a:1", "b:2", "c:3"), visited,
        "the next healthy one, then, all failed, round every namenode in turn");
  }

  @Test
  void aFailoverAfterAConcurrentCallAlreadyMovedDoesNotMoveAgain() {
    NamenodeSelector selector = selector(SelectionPolicy.STICKY, 0);
    selector.choose();
    selector.failed("a:1");
    assertEquals("b:2", selector.choose(), "a concurrent call moves off the failed namenode");
    selector.failover();
    assertEquals("b:2", selector.current(), "the late failover of the failed call keeps the healthy namenode");
  }

  @Test
  void aLearnedListReplacesTheSeedsAndTheSeedsAreTheFallback() {
    NamenodeSelector selector = selector(SelectionPolicy.ROUND_ROBIN, 0);
    selector.update(List.of(entry(1, "x:1", 0), entry(2, "y:2", 0)));
    assertEquals(Set.of("x:1", "y:2"), new HashSet<>(calls(selector, 4)));
    selector.failed("x:1");
    selector.failed("y:2");
    assertEquals(new HashSet<>(SEEDS), new HashSet<>(calls(selector, 6)), "every learned namenode failed");
    SEEDS.forEach(selector::failed);
    assertEquals(Set.of("x:1", "y:2", "a:1", "b:2", "c:3"), new HashSet<>(calls(selector, 10)),
        "everything failed: try them all anyway");
    clock.addAndGet(AVOID_MS);
    selector.update(List.of());
    assertEquals(new HashSet<>(SEEDS), new HashSet<>(calls(selector, 6)), "an empty list brings the seeds back");
  }

  @Test
  void stickyLeavesANamenodeTheNewListNoLongerHas() {
    NamenodeSelector selector = selector(SelectionPolicy.RANDOM_STICKY, 0);
    String first = selector.choose();
    selector.update(List.of(entry(1, first, 0), entry(2, "y:2", 0)));
    assertEquals(first, selector.choose(), "still live: stay");
    selector.update(List.of(entry(2, "y:2", 0)));
    assertEquals("y:2", selector.choose());
  }

  @Test
  void namenodesOfTheClientsLocationDomainArePreferredWhileOneIsLive() {
    List<NamenodeList.Entry> learned = List.of(entry(1, "x:1", 1), entry(2, "y:2", 2), entry(3, "z:3", 2),
        entry(4, "w:4", 3));
    for (SelectionPolicy policy : SelectionPolicy.values()) {
      clock.addAndGet(AVOID_MS);
      NamenodeSelector selector = selector(policy, 2);
      selector.update(learned);
      Set<String> chosen = new HashSet<>(calls(selector, 20));
      assertTrue(Set.of("y:2", "z:3").containsAll(chosen), policy + " chose " + chosen);
      if (policy.perCall()) {
        assertEquals(Set.of("y:2", "z:3"), chosen, policy + " uses both local namenodes");
      }
      selector.failed("y:2");
      selector.failed("z:3");
      selector.failover();
      Set<String> fallback = new HashSet<>(calls(selector, 20));
      assertTrue(Set.of("x:1", "w:4").containsAll(fallback), policy + " fell back to " + fallback);
      clock.addAndGet(AVOID_MS);
      if (policy.perCall()) {
        assertEquals(Set.of("y:2", "z:3"), new HashSet<>(calls(selector, 20)), policy + " returns to its domain");
      }
    }
  }

  @Test
  void withoutADomainEveryLearnedNamenodeIsACandidate() {
    NamenodeSelector selector = selector(SelectionPolicy.ROUND_ROBIN, 0);
    selector.update(List.of(entry(1, "x:1", 1), entry(2, "y:2", 2)));
    assertEquals(Set.of("x:1", "y:2"), new HashSet<>(calls(selector, 4)));
  }

  @Test
  void askOrderPutsTheCurrentNamenodeFirstAndFailedOnesLast() {
    NamenodeSelector selector = selector(SelectionPolicy.STICKY, 0);
    selector.choose();
    assertEquals("a:1", selector.askOrder().get(0));
    selector.failed("a:1");
    List<String> order = selector.askOrder();
    assertEquals(3, order.size());
    assertEquals("a:1", order.get(2));
  }

  @Test
  void onlyConnectionLevelFailuresCountAgainstANamenode() {
    assertTrue(NamenodeSelector.meansNamenodeFailed(new ConnectException("refused")));
    assertTrue(NamenodeSelector.meansNamenodeFailed(new EOFException()));
    assertTrue(NamenodeSelector.meansNamenodeFailed(new SocketTimeoutException()));
    assertTrue(NamenodeSelector.meansNamenodeFailed(new IOException("Connection reset by peer")));
    assertTrue(NamenodeSelector.meansNamenodeFailed(
        new RemoteException(StandbyException.class.getName(), "standby")));
    assertFalse(NamenodeSelector.meansNamenodeFailed(
        new RemoteException("java.io.FileNotFoundException", "no such file")));
    assertFalse(NamenodeSelector.meansNamenodeFailed(new InterruptedIOException()));
    assertFalse(NamenodeSelector.meansNamenodeFailed(new IllegalStateException()));
  }

  @Test
  void badSettingsAreRefusedWithTheKey() {
    IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
        () -> SelectionPolicy.parse("fastest"));
    assertTrue(policy.getMessage().contains(ClientConfig.NAMENODE_SELECTION), policy.getMessage());
    assertTrue(policy.getMessage().contains("random, round-robin, sticky, random-sticky"), policy.getMessage());
    assertEquals(SelectionPolicy.ROUND_ROBIN, SelectionPolicy.parse(" Round-Robin "));
    IllegalArgumentException domain = assertThrows(IllegalArgumentException.class,
        () -> new NamenodeSelector(SelectionPolicy.RANDOM, -1, AVOID_MS, clock::get, new Random(), SEEDS));
    assertTrue(domain.getMessage().contains(ClientConfig.LOCATION_DOMAIN_ID), domain.getMessage());
  }

  private static NamenodeList.Entry entry(long id, String address, int domain) {
    return new NamenodeList.Entry(id, address, domain, id == 1);
  }
}
