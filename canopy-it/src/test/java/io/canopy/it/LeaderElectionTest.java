package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import io.canopy.namenode.membership.ElectionSettings;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.membership.LeaderFence;
import io.canopy.namenode.membership.NotLeaderException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leader election alone, against the database, with an injected clock: namenodes are {@link LeaderElection}s whose
 * rounds the test schedules. Time only moves when the test moves it.
 */
@Timeout(180)
class LeaderElectionTest {
  private static final long ROUND_MS = 1_000;
  private static final int MISSED_ROUNDS = 2;
  private static final ElectionSettings SETTINGS = ElectionSettings.of(ROUND_MS, MISSED_ROUNDS);
  /** How long a dead leader may stay unreplaced: (k + 1) rounds, plus one round for where in its round it died. */
  private static final long TAKEOVER_BOUND_MS = (MISSED_ROUNDS + 2) * ROUND_MS;

  @TempDir
  static Path directory;
  static EmbeddedPostgresServer database;
  static MetadataStore store;

  private final AtomicLong nowNanos = new AtomicLong(1_000_000_000L);

  @BeforeAll
  static void start() throws IOException {
    database = EmbeddedPostgresServer.start(directory.resolve("db"), directory.resolve("secrets"), 0);
    Configuration conf = new Configuration(false);
    database.ownerSettings().forEach(conf::set);
    store = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf));
    NamespaceFormatter.format(store, conf, false);
  }

  @AfterAll
  static void stop() throws IOException {
    if (store != null) {
      store.close();
    }
    if (database != null) {
      database.close();
    }
  }

  @BeforeEach
  void emptyGroup() throws IOException {
    // Each test starts with no descriptors and the default round time (terms keep growing: they never go back).
    try (Transaction tx = store.begin()) {
      for (NamenodeRecord record : tx.namenodes().all()) {
        tx.namenodes().delete(record.id());
      }
      tx.variables().putLong(LeaderElection.ROUND_MS, ROUND_MS);
      tx.variables().putLong(LeaderElection.LEADER_ID, 0);
      tx.commit();
    }
  }

  private LeaderElection namenode(int port) {
    return new LeaderElection(store, SETTINGS, () -> "127.0.0.1:" + port, () -> "", 0, nowNanos::get,
        () -> nowNanos.get() / 1_000_000);
  }

  private void advance(long ms) {
    nowNanos.addAndGet(ms * 1_000_000);
  }

  private static long storedTerm() throws IOException {
    try (Transaction tx = store.begin()) {
      return tx.variables().getLong(LeaderFence.TERM, LockMode.NONE).orElse(0);
    }
  }

  @Test
  void aRoundLostToALockConflictRunsAgainSoonAFewTimesThenARoundLater() throws IOException {
    FlakyStore flaky = new FlakyStore(store);
    LeaderElection election = new LeaderElection(flaky, SETTINGS, () -> "127.0.0.1:9", () -> "", 0, nowNanos::get,
        () -> nowNanos.get() / 1_000_000);
    election.runRound();
    assertEquals(ROUND_MS, election.nextRoundDelayMs());
    flaky.failNext(1);
    election.runRound();
    assertEquals(200, election.nextRoundDelayMs(), "a wait-die loser runs again soon");
    election.runRound();
    assertEquals(ROUND_MS, election.nextRoundDelayMs(), "a committed round: back to the round time");

    flaky.failNext(3 + 1);
    for (int i = 0; i < 3; i++) {
      election.runRound();
      assertEquals(200, election.nextRoundDelayMs());
    }
    election.runRound();
    assertEquals(ROUND_MS, election.nextRoundDelayMs(), "bounded: then a whole round later");

    flaky.leaveUnansweredNext(1);
    election.runRound();
    assertEquals(ROUND_MS, election.nextRoundDelayMs(), "a database that does not answer is not asked sooner");
    election.leave();
  }

  @Test
  void aLoneNamenodeLeadsFromItsFirstRoundAndOnlyWhileItsLeaseHolds() throws IOException {
    LeaderElection only = namenode(9001);
    long termBefore = storedTerm();
    only.runRound();
    assertTrue(only.isLeader());
    assertEquals(termBefore + 1, only.leaderTerm().orElseThrow());
    assertEquals(only.selfId(), only.leaderId());
    assertEquals(List.of(only.selfId()), only.liveNamenodes().stream().map(NamenodeRecord::id).toList());

    // Without rounds the lease runs out before anyone could have declared this namenode dead.
    advance(MISSED_ROUNDS * ROUND_MS - SETTINGS.marginMs() - 1);
    assertTrue(only.isLeader());
    advance(2);
    assertFalse(only.isLeader());
    assertTrue(only.leaderTerm().isEmpty());
    // A round renews it, in the same term.
    only.runRound();
    assertTrue(only.isLeader());
    assertEquals(termBefore + 1, only.leaderTerm().orElseThrow());
    only.leave();
  }

  @Test
  void theSmallestLiveIdLeadsAndEveryoneAgrees() {
    List<LeaderElection> group = List.of(namenode(9001), namenode(9002), namenode(9003));
    for (int round = 0; round < 3; round++) {
      group.forEach(LeaderElection::runRound);
      advance(ROUND_MS);
    }
    long smallest = group.stream().mapToLong(LeaderElection::selfId).min().orElseThrow();
    for (LeaderElection namenode : group) {
      assertEquals(smallest, namenode.leaderId());
      assertEquals(namenode.selfId() == smallest, namenode.isLeader());
      assertEquals(3, namenode.liveNamenodes().size());
    }
    group.forEach(LeaderElection::leave);
  }

  @Test
  void aNewLeaderWithinMissedRoundsPlusOneAfterTheLeaderDies() throws IOException {
    // Ten kills, as the figure asks: each time the leader stops in a random place in its round.
    Random random = new Random(7);
    List<Long> takeovers = new ArrayList<>();
    List<LeaderElection> group = new ArrayList<>(List.of(namenode(9001), namenode(9002), namenode(9003)));
    Map<LeaderElection, Long> nextRound = new HashMap<>();
    group.forEach(n -> nextRound.put(n, 0L));
    long now = 0;
    for (int kill = 0; kill < 10; kill++) {
      // Settle: everyone runs rounds until a leader is established.
      for (int step = 0; step < 40 || group.stream().noneMatch(LeaderElection::isLeader); step++) {
        now = tick(group, nextRound, now, 100, random);
      }
      LeaderElection leader = group.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow();
      long oldTerm = leader.leaderTerm().orElseThrow();
      // Die somewhere inside the round.
      for (int step = random.nextInt(10); step > 0; step--) {
        now = tick(group, nextRound, now, 100, random);
      }
      group.remove(leader);
      nextRound.remove(leader);
      long diedAt = now;
      LeaderElection next = null;
      while (next == null) {
        now = tick(group, nextRound, now, 100, random);
        next = group.stream().filter(LeaderElection::isLeader).findFirst().orElse(null);
        assertTrue(now - diedAt <= TAKEOVER_BOUND_MS, "no new leader " + (now - diedAt) + " ms after the leader died");
      }
      takeovers.add(now - diedAt);
      assertTrue(next.leaderTerm().orElseThrow() > oldTerm, "a new leader must take a new term");
      assertEquals(oldTerm + 1, storedTerm());
      LeaderElection replacement = namenode(9100 + kill); // a restarted namenode joins with a larger id
      group.add(replacement);
      nextRound.put(replacement, now);
    }
    takeovers.sort(null);
    System.out.println("LeaderElectionTest: time to a new leader over 10 kills (round " + ROUND_MS + " ms, k = "
        + MISSED_ROUNDS + "): median " + takeovers.get(5) + " ms, max " + takeovers.get(9) + " ms");
    group.forEach(LeaderElection::leave);
  }

  /** Advances time by {@code stepMs} and runs the rounds that are due, each namenode a round time (plus jitter) apart. */
  private long tick(List<LeaderElection> group, Map<LeaderElection, Long> nextRound, long now, long stepMs,
      Random random) {
    advance(stepMs);
    now += stepMs;
    for (LeaderElection namenode : group) {
      if (nextRound.get(namenode) <= now) {
        namenode.runRound();
        nextRound.put(namenode, now + namenode.roundMs() + random.nextInt((int) (namenode.roundMs() / 4) + 1));
      }
    }
    assertTrue(group.stream().filter(LeaderElection::isLeader).count() <= 1, "two valid leaders at once");
    return now;
  }

  /** One valid leader that every namenode names, and every namenode sees exactly the running ones. */
  private static boolean settled(List<LeaderElection> running) {
    List<LeaderElection> leaders = running.stream().filter(LeaderElection::isLeader).toList();
    return leaders.size() == 1 && running.stream().allMatch(n -> n.leaderId() == leaders.get(0).selfId()
        && n.liveNamenodes().size() == running.size());
  }

  @Test
  void aPausedLeaderIsReplacedItsFencedWritesFailAndItRejoinsAsAMember() throws IOException {
    LeaderElection first = namenode(9001);
    LeaderElection second = namenode(9002);
    for (int round = 0; round < 3; round++) {
      first.runRound();
      second.runRound();
      advance(ROUND_MS);
    }
    assertTrue(first.isLeader());
    long oldTerm = first.leaderTerm().orElseThrow();
    long firstId = first.selfId();

    // The leader pauses (a long GC, a frozen VM) for longer than the eviction time; the other one carries on.
    for (int step = 0; step <= 10 * (MISSED_ROUNDS + 1); step++) {
      if (step % 10 == 0) {
        second.runRound();
      }
      assertFalse(first.isLeader() && second.isLeader(), "two valid leaders");
      advance(ROUND_MS / 10);
    }
    assertTrue(second.isLeader());
    assertEquals(oldTerm + 1, second.leaderTerm().orElseThrow());
    assertFalse(first.isLeader(), "the paused leader's lease must have run out");

    // Work the paused leader started under its old term cannot commit, whatever it believes.
    try (Transaction tx = store.begin()) {
      assertThrows(NotLeaderException.class, () -> LeaderFence.check(tx.variables(), oldTerm));
    }
    // The new leader's term passes the same fence.
    try (Transaction tx = store.begin()) {
      LeaderFence.check(tx.variables(), second.leaderTerm().orElseThrow());
      tx.commit();
    }

    // When it wakes up it finds itself evicted, rejoins with a larger id, and the leader slows the rounds down.
    first.runRound();
    assertNotEquals(firstId, first.selfId());
    assertTrue(first.selfId() > second.selfId());
    assertFalse(first.isLeader());
    second.runRound();
    assertEquals(ROUND_MS + ROUND_MS / 2, second.roundMs(), "evictions for slowness raise the round time");
    first.runRound();
    assertEquals(second.roundMs(), first.roundMs(), "the round time is shared through the database");
    assertEquals(second.selfId(), first.leaderId());
    first.leave();
    second.leave();
  }

  @Test
  void atMostOneValidLeaderThroughChurnPausesAndRestarts() throws IOException {
    long seed = Long.getLong("canopy.election.seed", System.nanoTime());
    System.out.println("LeaderElectionTest churn seed " + seed + " (replay with -Dcanopy.election.seed=" + seed + ")");
    Random random = new Random(seed);
    List<LeaderElection> running = new ArrayList<>();
    Map<LeaderElection, Long> nextRound = new HashMap<>();
    Map<LeaderElection, Long> pausedUntil = new HashMap<>();
    Map<Long, Long> leaderOfTerm = new HashMap<>();
    int port = 9200;
    for (int i = 0; i < 4; i++) {
      LeaderElection namenode = namenode(port++);
      running.add(namenode);
      nextRound.put(namenode, 0L);
    }
    long now = 0;
    long lastTerm = 0;
    for (int step = 0; step < 1500; step++) {
      advance(100);
      now += 100;
      int event = random.nextInt(100);
      if (event < 3 && running.size() > 1) {
        // SIGKILL: it stops forever (its descriptor stays until the leader evicts it).
        LeaderElection victim = running.remove(random.nextInt(running.size()));
        nextRound.remove(victim);
        pausedUntil.remove(victim);
      } else if (event < 6) {
        LeaderElection restarted = namenode(port++);
        running.add(restarted);
        nextRound.put(restarted, now);
      } else if (event < 10) {
        // A pause of up to five rounds: sometimes longer than the eviction time, sometimes not; the leader's
        // pauses are the interesting ones, so it is picked half of the time.
        LeaderElection leader = running.stream().filter(LeaderElection::isLeader).findFirst().orElse(null);
        LeaderElection paused = leader != null && random.nextBoolean() ? leader
            : running.get(random.nextInt(running.size()));
        pausedUntil.put(paused, now + random.nextInt(5 * (int) paused.roundMs()));
      }
      for (LeaderElection namenode : running) {
        if (pausedUntil.getOrDefault(namenode, Long.MIN_VALUE) > now || nextRound.get(namenode) > now) {
          continue;
        }
        namenode.runRound();
        nextRound.put(namenode, now + namenode.roundMs() + random.nextInt((int) (namenode.roundMs() / 4) + 1));
      }
      List<LeaderElection> leaders = running.stream().filter(LeaderElection::isLeader).toList();
      assertTrue(leaders.size() <= 1, "two valid leaders at " + now + " ms (seed " + seed + ")");
      for (LeaderElection leader : leaders) {
        long term = leader.leaderTerm().orElseThrow();
        assertTrue(term >= lastTerm, "terms never go back (seed " + seed + ")");
        lastTerm = term;
        Long holder = leaderOfTerm.putIfAbsent(term, leader.selfId());
        assertTrue(holder == null || holder == leader.selfId(), "term " + term + " held by two namenodes");
      }
    }
    // Quiet period: nobody pauses or dies; a single leader emerges and everyone agrees on it.
    pausedUntil.clear();
    long slowestRound = running.stream().mapToLong(LeaderElection::roundMs).max().orElseThrow();
    long quietSteps = (MISSED_ROUNDS + 4) * SETTINGS.maxRoundMs() / 100;
    for (int step = 0; step < quietSteps; step++) {
      advance(100);
      now += 100;
      for (LeaderElection namenode : running) {
        if (nextRound.get(namenode) <= now) {
          namenode.runRound();
          nextRound.put(namenode, now + namenode.roundMs());
        }
      }
      if (step > (MISSED_ROUNDS + 3) * slowestRound / 100 && settled(running)) {
        break;
      }
    }
    List<LeaderElection> leaders = running.stream().filter(LeaderElection::isLeader).toList();
    assertEquals(1, leaders.size(), "one leader after a quiet period (seed " + seed + ")");
    long leaderId = leaders.get(0).selfId();
    for (LeaderElection namenode : running) {
      assertEquals(leaderId, namenode.leaderId(), "everyone agrees on the leader (seed " + seed + ")");
      assertEquals(running.size(), namenode.liveNamenodes().size(), "dead descriptors evicted (seed " + seed + ")");
    }
    running.forEach(LeaderElection::leave);
  }
}
