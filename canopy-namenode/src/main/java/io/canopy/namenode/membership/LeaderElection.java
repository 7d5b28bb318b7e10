package io.canopy.namenode.membership;

import io.canopy.metadata.IdKind;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.StoreUnavailableException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.NamenodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election and group membership through the database (docs/references.md [HopsFS-Thesis] s.4.1.8, [Design] s.7).
 *
 * <p>Every round (one transaction, serialized with every other namenode's rounds by an exclusive lock on the
 * {@code leader.election} variable) a namenode increments its descriptor's counter and reads every other
 * descriptor. A namenode whose counter did not move for {@code missedRounds} of this namenode's rounds is dead to
 * it; the smallest live id is the leader. The leader deletes dead descriptors; a namenode that finds its own
 * descriptor deleted was evicted (it was too slow, or paused): it rejoins with a new id and counts the eviction, and
 * the leader raises the shared round time by half when it sees evictions, up to the maximum.
 *
 * <p>Becoming leader increments the leader term (exclusively locked, so fenced transactions of the previous leader
 * finish first, see {@link LeaderFence}). A leader acts only while its lease holds: {@code missedRounds} rounds minus
 * a margin after the <em>start</em> of its last successful round, measured on the monotonic clock. Another namenode
 * declares it dead only after seeing its counter unchanged across {@code missedRounds} of its own rounds, each at
 * least a round time apart and all after that last increment committed, so the lease ends first: at most one
 * namenode holds a valid lease at any instant (and the term fences its work even if clocks misbehave).
 *
 * <p>{@code rpcAddress} is asked when this namenode joins (its RPC server may bind a free port first).
 *
 * <p>Rounds are driven by the caller ({@link #runRound()}, e.g. from a scheduled executor every {@link #roundMs()});
 * clocks are injected, so tests drive time.
 */
public final class LeaderElection implements MembershipView {
  /** Serializes election rounds across namenodes. */
  public static final String ELECTION_LOCK = "leader.election";
  /** Id of the namenode that holds the current term. */
  public static final String LEADER_ID = "leader.id";
  /** The shared round time, raised by the leader when namenodes are evicted for slowness. */
  public static final String ROUND_MS = "leader.round-ms";
  /** How many times namenodes found themselves evicted and rejoined. */
  public static final String EVICTIONS = "leader.evictions";

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
  /** Rounds run again soon after a lock conflict, in a row, at most. */
  static final int MAX_QUICK_RETRIES = 3;
  static final long QUICK_RETRY_MS = 200;

  /** What this namenode saw of another one: its counter, and for how many of its own rounds it has not moved. */
  private record Observation(long counter, int unchangedRounds) {
  }

  /** A consistent picture published after each round. */
  private record State(long selfId, long leaderId, List<NamenodeRecord> live, long term, long leaseUntilNanos,
      boolean leader) {
  }

  private final MetadataStore store;
  private final ElectionSettings settings;
  private final Supplier<String> rpcAddress;
  private final Supplier<String> httpAddress;
  private final int locationDomainId;
  private final LongSupplier nanoClock;
  private final LongSupplier wallClockMs;
  private final Map<Long, Observation> observed = new HashMap<>();

  private long selfId;
  /** The id this namenode joins (or rejoins) with, kept until a round that used it is known to have committed. */
  private long joiningId;
  private long counter;
  private long startedAtMs;
  /** Written by the round (under this object's lock), read by anyone without it. */
  private volatile long roundMs;
  private long previousRoundMs;
  private long evictionsSeen = -1;
  /** Set by the first committed round: whether no other namenode had run a round recently (a cluster start). */
  private volatile Boolean joinedAlone;
  private volatile State state = new State(0, 0, List.of(), 0, Long.MIN_VALUE, false);
  private boolean closed;
  /** Rounds lost to a lock conflict in a row, each run again soon ({@link #nextRoundDelayMs}). */
  private int quickRetries;

  public LeaderElection(MetadataStore store, ElectionSettings settings, Supplier<String> rpcAddress,
      Supplier<String> httpAddress, int locationDomainId, LongSupplier nanoClock, LongSupplier wallClockMs) {
    this.store = store;
    this.settings = settings;
    this.rpcAddress = rpcAddress;
    this.httpAddress = httpAddress;
    this.locationDomainId = locationDomainId;
    this.nanoClock = nanoClock;
    this.wallClockMs = wallClockMs;
    this.roundMs = settings.roundMs();
    this.previousRoundMs = settings.roundMs();
  }

  /**
   * One election round in one transaction. A failed round (database unreachable, lock timeout) is a missed round:
   * the lease is not renewed, and the next round tries again.
   */
  public synchronized void runRound() {
    if (closed) {
      return;
    }
    long startNanos = nanoClock.getAsLong();
    try {
      round(startNanos);
      quickRetries = 0;
    } catch (TransientStoreException e) {
      if (e instanceof StoreUnavailableException) {
        quickRetries = 0; // a database that does not answer is not asked again sooner
        LOG.warn("Leader election round of namenode {} failed; the next one retries: {}", selfId, e.getMessage());
        return;
      }
      // A lock conflict with another namenode's round: on an engine that settles conflicts by wait-die the younger
      // round fails at once instead of waiting (design 020), so it runs again soon, not a whole round later.
      quickRetries++;
      if (quickRetries > MAX_QUICK_RETRIES) {
        quickRetries = 0;
        LOG.warn("Leader election round of namenode {} failed transiently {} times in a row; the next round "
            + "retries: {}", selfId, MAX_QUICK_RETRIES + 1, e.getMessage());
      } else {
        LOG.debug("Leader election round of namenode {} failed transiently; it runs again in {} ms: {}", selfId,
            nextRoundDelayMs(), e.getMessage());
      }
    } catch (StoreException | RuntimeException e) {
      quickRetries = 0;
      LOG.warn("Leader election round of namenode {} failed; the next one retries: {}", selfId, e.getMessage());
    }
  }

  /**
   * When the next round is due: a round time after this one, or sooner after a round lost to a lock conflict (at
   * most {@value #MAX_QUICK_RETRIES} times in a row, {@value #QUICK_RETRY_MS} ms or a quarter round apart).
   */
  public synchronized long nextRoundDelayMs() {
    return quickRetries > 0 ? Math.min(QUICK_RETRY_MS, roundMs / 4) : roundMs;
  }

  private void round(long startNanos) throws StoreException {
    if (selfId == 0 && joiningId == 0) {
      joiningId = store.allocateIds(IdKind.NAMENODE, 1).first();
    }
    try (Transaction transaction = store.begin()) {
      if (transaction.variables().getLong(ELECTION_LOCK, LockMode.EXCLUSIVE).isEmpty()) {
        // First round on this namespace: create the lock row; concurrent creators agree (an upsert).
        transaction.variables().putLong(ELECTION_LOCK, 0);
        transaction.commit();
        round(startNanos);
        return;
      }
      long sharedRoundMs = transaction.variables().getLong(ROUND_MS, LockMode.NONE)
          .orElse(settings.roundMs());
      long storedLeader = transaction.variables().getLong(LEADER_ID, LockMode.NONE).orElse(0);
      long evictions = transaction.variables().getLong(EVICTIONS, LockMode.NONE).orElse(0);
      List<NamenodeRecord> descriptors = transaction.namenodes().all();
      long nowMs = wallClockMs.getAsLong();

      long id = selfId != 0 ? selfId : joiningId;
      NamenodeRecord self = find(descriptors, id);
      boolean evicted = selfId != 0 && self == null;
      if (evicted) {
        // Deleted by a leader that saw this namenode's counter stall: it was paused or too slow. Rejoin as new.
        if (joiningId == 0) {
          joiningId = store.allocateIds(IdKind.NAMENODE, 1).first();
        }
        id = joiningId;
        self = find(descriptors, id); // present when the rejoining round committed but its reply was lost
        evictions++;
        transaction.variables().putLong(EVICTIONS, evictions);
      }
      NamenodeRecord updated;
      if (self == null) {
        startedAtMs = startedAtMs == 0 ? nowMs : startedAtMs;
        updated = new NamenodeRecord(id, 1, rpcAddress.get(), httpAddress.get(), locationDomainId, startedAtMs, nowMs);
        transaction.namenodes().insert(updated);
      } else {
        updated = self.withRound(self.counter() + 1, nowMs);
        transaction.namenodes().update(updated);
      }

      // Liveness, as seen from here: a counter that has not moved for missedRounds of our rounds is dead.
      Map<Long, Observation> next = new HashMap<>();
      List<NamenodeRecord> live = new ArrayList<>();
      List<NamenodeRecord> dead = new ArrayList<>();
      for (NamenodeRecord other : descriptors) {
        if (other.id() == id || other.id() == selfId) {
          continue;
        }
        Observation before = observed.get(other.id());
        Observation now = before != null && before.counter() == other.counter()
            ? new Observation(other.counter(), before.unchangedRounds() + 1)
            : new Observation(other.counter(), 0);
        next.put(other.id(), now);
        (now.unchangedRounds() >= settings.missedRounds() ? dead : live).add(other);
      }
      live.add(updated);
      live.sort((a, b) -> Long.compare(a.id(), b.id()));
      long leaderId = live.get(0).id();
      boolean leader = leaderId == id;

      long term = 0;
      long newRoundMs = sharedRoundMs;
      if (leader) {
        for (NamenodeRecord gone : dead) {
          transaction.namenodes().delete(gone.id());
          next.remove(gone.id());
        }
        if (evictionsSeen >= 0 && evictions > evictionsSeen && sharedRoundMs < settings.maxRoundMs()) {
          newRoundMs = Math.min(settings.maxRoundMs(), sharedRoundMs + sharedRoundMs / 2);
          transaction.variables().putLong(ROUND_MS, newRoundMs);
        }
        long storedTerm = transaction.variables().getLong(LeaderFence.TERM,
            storedLeader == id && state.leader() ? LockMode.NONE : LockMode.EXCLUSIVE).orElse(0);
        if (storedLeader == id && state.leader() && storedTerm == state.term()) {
          term = storedTerm;
        } else {
          term = storedTerm + 1;
          transaction.variables().putLong(LeaderFence.TERM, term);
          transaction.variables().putLong(LEADER_ID, id);
        }
      }
      transaction.commit();

      // Committed: publish.
      if (joinedAlone == null) {
        long recentMs = nowMs - (long) settings.missedRounds() * sharedRoundMs;
        long joinedId = id;
        joinedAlone = descriptors.stream().noneMatch(d -> d.id() != joinedId && d.lastRoundMs() >= recentMs);
      }
      if (evicted) {
        LOG.warn("Namenode {} was evicted from the group (paused or slower than {} rounds of {} ms); rejoined as {}",
            selfId, settings.missedRounds(), sharedRoundMs, id);
      }
      if (!dead.isEmpty() && leader) {
        LOG.info("Leader {} evicted dead namenodes {}", id, dead.stream().map(NamenodeRecord::id).toList());
      }
      if (newRoundMs != sharedRoundMs) {
        LOG.warn("Leader {} raised the election round time from {} ms to {} ms after namenodes were evicted for "
            + "slowness", id, sharedRoundMs, newRoundMs);
      }
      boolean wasLeader = state.leader() && state.selfId() == id;
      if (leader && (!wasLeader || term != state.term())) {
        LOG.info("Namenode {} is the leader, term {}", id, term);
      } else if (!leader && wasLeader) {
        LOG.info("Namenode {} is no longer the leader; namenode {} is", id, leaderId);
      }
      selfId = id;
      joiningId = 0;
      counter = updated.counter();
      observed.clear();
      observed.putAll(next);
      if (leader) {
        evictionsSeen = evictions;
      }
      previousRoundMs = roundMs;
      roundMs = newRoundMs;
      // The lease assumes observers space their rounds at least a round apart; round time only grows, and each
      // namenode reads it every round, so the smaller of this round's and the previous one's is safe.
      long leaseMs = settings.missedRounds() * Math.min(previousRoundMs, roundMs) - settings.marginMs();
      long leaseUntil = leader ? startNanos + leaseMs * 1_000_000L : Long.MIN_VALUE;
      state = new State(id, leaderId, List.copyOf(live), leader ? term : state.term(), leaseUntil, leader);
    }
  }

  private static NamenodeRecord find(List<NamenodeRecord> descriptors, long id) {
    if (id == 0) {
      return null;
    }
    for (NamenodeRecord descriptor : descriptors) {
      if (descriptor.id() == id) {
        return descriptor;
      }
    }
    return null;
  }

  /**
   * Whether, when this namenode joined, no other namenode had run an election round within the last {@code
   * missedRounds} round times (by the wall clocks of both): it started the cluster, or restarted it after every
   * namenode had stopped. False before the first committed round.
   */
  public boolean joinedAlone() {
    return Boolean.TRUE.equals(joinedAlone);
  }

  /** True while this namenode is the leader and its lease holds. */
  public boolean isLeader() {
    State current = state;
    return current.leader() && nanoClock.getAsLong() - current.leaseUntilNanos() < 0;
  }

  /** The term to fence leader work with, present only while {@link #isLeader()}. */
  public OptionalLong leaderTerm() {
    State current = state;
    return current.leader() && nanoClock.getAsLong() - current.leaseUntilNanos() < 0
        ? OptionalLong.of(current.term()) : OptionalLong.empty();
  }

  /**
   * The term this namenode claims to lead in, valid lease or not (0 when its last round did not make it leader).
   * Datanodes are told ACTIVE under this term: a namenode stops claiming only when a round shows it lost the
   * leadership, so a lease that lapsed and was renewed in the same term never looks like a second claim, and a
   * namenode leading again always has a new, higher term. Commands still need a valid lease and the fence.
   */
  public long claimedTerm() {
    State current = state;
    return current.leader() ? current.term() : 0;
  }

  /** The last term this namenode knows of (its own while leader), 0 before any. */
  public long knownTerm() {
    return state.term();
  }

  /** The round time in effect: wait this long between rounds. */
  public long roundMs() {
    return roundMs;
  }

  public synchronized long counter() {
    return counter;
  }

  @Override
  public List<NamenodeRecord> liveNamenodes() {
    return state.live();
  }

  @Override
  public long leaderId() {
    return state.leaderId();
  }

  /**
   * Whether namenode {@code id} may still be working: in this namenode's live view, or (the view lags by up to a round:
   * a namenode that just joined is not in it yet) still holding its descriptor, read now. Only an evicted or departed
   * namenode, whose descriptor is gone, is certainly dead. A read that fails answers alive: the safe side for work
   * that ignores a dead namenode's locks (design 017).
   */
  public boolean mayBeAlive(long id) {
    for (NamenodeRecord live : state.live()) {
      if (live.id() == id) {
        return true;
      }
    }
    try (Transaction transaction = store.beginReadOnly()) {
      return transaction.namenodes().get(id, LockMode.NONE).isPresent();
    } catch (StoreException e) {
      LOG.warn("Cannot tell whether namenode {} is alive: {}; taking it for alive", id, e.getMessage());
      return true;
    }
  }

  @Override
  public long selfId() {
    return state.selfId();
  }

  /**
   * Leaves the group: deletes this namenode's descriptor so the others need not wait for it to look dead. Best
   * effort; a namenode that dies instead is evicted after {@code missedRounds} rounds.
   */
  public synchronized void leave() {
    closed = true;
    long id = selfId;
    state = new State(id, 0, List.of(), state.term(), Long.MIN_VALUE, false);
    if (id == 0) {
      return;
    }
    try (Transaction transaction = store.begin()) {
      transaction.variables().getLong(ELECTION_LOCK, LockMode.EXCLUSIVE);
      Optional<NamenodeRecord> self = transaction.namenodes().get(id, LockMode.EXCLUSIVE);
      if (self.isPresent()) {
        transaction.namenodes().delete(id);
        transaction.commit();
      }
    } catch (StoreException | RuntimeException e) {
      LOG.warn("Namenode {} could not leave the group cleanly ({}); it will be evicted as dead", id, e.getMessage());
    }
  }
}
