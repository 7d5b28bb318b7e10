package io.canopy.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.StandbyException;

/**
 * Which namenode (by {@code host:port}) the next call goes to, under one {@link SelectionPolicy}. Pure decision
 * logic, thread-safe, no I/O: the clock and the randomness are injected.
 *
 * <p>The candidates, best first, are: the namenodes of the last learned list in the client's location domain that
 * have not failed recently; then every learned namenode that has not failed recently; then the configured (seed)
 * addresses that have not failed recently; and when every one of them has failed recently, all of them anyway (the
 * caller's retry policy bounds how long that goes on). A namenode "failed recently" when a call to it failed at the
 * connection level within the avoid interval. The learned list replaces the seeds as soon as a namenode gave one: a
 * namenode missing from it is dead as far as the membership knows.
 */
final class NamenodeSelector {
  private final SelectionPolicy policy;
  private final int locationDomainId;
  private final long avoidMs;
  private final LongSupplier clock;
  private final Random random;
  /** Orders the namenodes asked for the list; separate, so background refreshes leave the choices' sequence alone. */
  private final Random askRandom;
  private final List<String> seeds;

  private List<NamenodeList.Entry> learned = List.of();
  private final Map<String, Long> failedAtMs = new HashMap<>();
  /** The namenode the sticky policies are on; null before the first call. */
  private String current;
  /** The round-robin position. */
  private int turn;

  NamenodeSelector(SelectionPolicy policy, int locationDomainId, long avoidMs, LongSupplier clock, Random random,
      List<String> seeds) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("at least one namenode address is needed");
    }
    if (locationDomainId < 0) {
      throw new IllegalArgumentException(ClientConfig.LOCATION_DOMAIN_ID + " must not be negative, got "
          + locationDomainId);
    }
    this.policy = policy;
    this.locationDomainId = locationDomainId;
    this.avoidMs = avoidMs;
    this.clock = clock;
    this.random = random;
    this.askRandom = new Random(random.nextLong());
    this.seeds = List.copyOf(seeds);
  }

  /** True when {@code failure} of a call says the namenode is unreachable or not serving, not that it answered. */
  static boolean meansNamenodeFailed(Throwable failure) {
    if (failure instanceof RemoteException remote) {
      return StandbyException.class.getName().equals(remote.getClassName());
    }
    if (failure instanceof InterruptedIOException && !(failure instanceof SocketTimeoutException)) {
      return false; // our own thread was interrupted
    }
    return failure instanceof IOException;
  }

  SelectionPolicy policy() {
    return policy;
  }

  /** The namenode for the next call. */
  synchronized String choose() {
    List<String> candidates = candidates();
    switch (policy) {
      case RANDOM:
        return candidates.get(random.nextInt(candidates.size()));
      case ROUND_ROBIN:
        return candidates.get(Math.floorMod(turn++, candidates.size()));
      default:
        if (current == null || !candidates.contains(current)) {
          current = pickSticky(candidates, null);
        }
        return current;
    }
  }

  /** A call to {@code address} failed at the connection level: avoid it for a while. */
  synchronized void failed(String address) {
    failedAtMs.put(address, clock.getAsLong());
  }

  /**
   * The retry policy fails the current call over: a sticky policy leaves its namenode if it failed (a concurrent
   * call may already have moved it, then there is nothing to do). Per-call policies skip failed namenodes anyway.
   */
  synchronized void failover() {
    if (policy.perCall() || current == null || !recentlyFailed(current, clock.getAsLong())) {
      return;
    }
    List<String> candidates = candidates();
    current = pickSticky(candidates, current);
  }

  /** Replaces the learned namenode list (an empty list means the namenode knew none: the seeds serve again). */
  synchronized void update(List<NamenodeList.Entry> entries) {
    learned = List.copyOf(entries);
  }

  /** The order in which to ask namenodes for the list: the current or a healthy one first, failed ones last. */
  synchronized List<String> askOrder() {
    Set<String> order = new LinkedHashSet<>();
    List<String> candidates = candidates();
    if (current != null && candidates.contains(current)) {
      order.add(current);
    }
    int start = askRandom.nextInt(candidates.size());
    for (int i = 0; i < candidates.size(); i++) {
      order.add(candidates.get((start + i) % candidates.size()));
    }
    order.addAll(everyKnown());
    return new ArrayList<>(order);
  }

  /** The sticky policies' namenode, or null (per-call policies, or before the first call). */
  synchronized String current() {
    return current;
  }

  synchronized List<NamenodeList.Entry> learned() {
    return learned;
  }

  synchronized String describe() {
    if (!policy.perCall() && current != null) {
      return "namenode " + current + " (" + policy + ")";
    }
    return "namenodes " + String.join(", ", candidates()) + " (" + policy + ")";
  }

  /** The best non-empty tier of candidates (see the class comment), in list order. */
  private List<String> candidates() {
    long now = clock.getAsLong();
    failedAtMs.values().removeIf(failedAt -> now - failedAt >= avoidMs);
    List<String> local = new ArrayList<>();
    List<String> healthyLearned = new ArrayList<>();
    for (NamenodeList.Entry entry : learned) {
      if (!recentlyFailed(entry.rpcAddress(), now)) {
        healthyLearned.add(entry.rpcAddress());
        if (locationDomainId != 0 && entry.locationDomainId() == locationDomainId) {
          local.add(entry.rpcAddress());
        }
      }
    }
    if (!local.isEmpty()) {
      return local;
    }
    if (!healthyLearned.isEmpty()) {
      return healthyLearned;
    }
    List<String> healthySeeds = new ArrayList<>();
    for (String seed : seeds) {
      if (!recentlyFailed(seed, now)) {
        healthySeeds.add(seed);
      }
    }
    return healthySeeds.isEmpty() ? everyKnown() : healthySeeds;
  }

  private List<String> everyKnown() {
    Set<String> all = new LinkedHashSet<>();
    learned.forEach(entry -> all.add(entry.rpcAddress()));
    all.addAll(seeds);
    return new ArrayList<>(all);
  }

  private boolean recentlyFailed(String address, long now) {
    Long failedAt = failedAtMs.get(address);
    return failedAt != null && now - failedAt < avoidMs;
  }

  /**
   * A namenode to stay on: the first candidate (sticky) or a random one (random-sticky), other than {@code leaving}
   * when there is another; when {@code leaving} is among the candidates (all namenodes failed), sticky takes the
   * one after it, so that repeated failovers go round every namenode.
   */
  private String pickSticky(List<String> candidates, String leaving) {
    List<String> others = new ArrayList<>(candidates);
    int leavingIndex = leaving == null ? -1 : others.indexOf(leaving);
    if (leavingIndex >= 0 && others.size() > 1) {
      others.remove(leavingIndex);
      if (policy == SelectionPolicy.STICKY) {
        return others.get(leavingIndex % others.size());
      }
    }
    return policy == SelectionPolicy.STICKY ? others.get(0) : others.get(random.nextInt(others.size()));
  }
}
