package io.canopy.namenode.datanode;

import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.membership.MembershipView;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which namenode applies a datanode's incremental reports and writes its heartbeat row (design 018): of the live
 * namenodes in this namenode's membership view, the one with the highest rendezvous score of (datanode uuid,
 * namenode id). No table and no leader decide it: every namenode computes the same answer once the views agree, and
 * about 1/N of the datanodes move when a namenode joins or leaves.
 *
 * <p>Views agree only after an election round, so a handover is covered from both sides: a namenode that stops being
 * a datanode's applier keeps applying for {@link #handoverMs} more, and one that becomes it first replays what it
 * received of that datanode in the last {@link #handoverMs} ({@link ReportBuffer}). Applying a report twice changes
 * nothing the second time. A namenode alone, or not yet in the group, applies everything.
 *
 * <p>Only the applier stores a datanode's heartbeat, so its row tells the others whether the applier hears the
 * datanode: a row unchanged for {@link #staleMs} (the applier paused or dead and not evicted yet, or not one of the
 * namenodes that datanode talks to, e.g. a namenode added before the datanodes were told of it) makes every
 * namenode that hears the datanode apply its reports, replaying first what it kept.
 */
public final class ReportAppliers {
  /** What this namenode does with a datanode's report now. */
  public record Route(boolean apply, boolean replayFirst) {
    static final Route APPLY = new Route(true, false);
    static final Route REPLAY_THEN_APPLY = new Route(true, true);
    static final Route LEAVE = new Route(false, false);
  }

  /** Per datanode: whether this namenode was its applier at the last decision, and since when it is not. */
  private record State(boolean applier, long lostAtMs) {
  }

  /** Per datanode: the heartbeat time last read from its row, and when (by this namenode's clock) it was first read. */
  private record Heard(long rowMs, long seenAtMs) {
  }

  private final MembershipView view;
  private final LongSupplier clockMs;
  private final LongSupplier handoverMs;
  private final long staleMs;
  private final ConcurrentHashMap<String, State> states = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Heard> heard = new ConcurrentHashMap<>();

  /**
   * {@code handoverMs}: how long views may disagree about the group (a few election rounds), and at least how long a
   * stale heartbeat row takes to show; a namenode keeps applying for that long after losing a datanode, and replays
   * that far back on gaining one. {@code staleMs}: the age past which a heartbeat row says its applier does not hear
   * the datanode.
   */
  public ReportAppliers(MembershipView view, LongSupplier clockMs, LongSupplier handoverMs, long staleMs) {
    if (staleMs <= 0) {
      throw new IllegalArgumentException("the stale heartbeat age must be positive, got " + staleMs);
    }
    this.view = view;
    this.clockMs = clockMs;
    this.handoverMs = handoverMs;
    this.staleMs = staleMs;
  }

  /**
   * Whether the heartbeat row of {@code datanodeUuid}, now read as stored at {@code lastHeartbeatMs}, has not changed
   * for {@link #staleMs} by this namenode's clock: its applier does not hear the datanode. Only this namenode's
   * clock is compared with itself (the row's time is the applier's clock), so clock differences between namenodes
   * neither hide a stale row nor make a fresh one look stale.
   */
  public boolean unheard(String datanodeUuid, long lastHeartbeatMs) {
    long now = clockMs.getAsLong();
    Heard seen = heard.compute(datanodeUuid, (uuid, before) -> before == null || before.rowMs() != lastHeartbeatMs
        ? new Heard(lastHeartbeatMs, now) : before);
    return now - seen.seenAtMs() > staleMs;
  }

  /**
   * Where a replay of {@code datanodeUuid}'s kept reports starts: a handover period back, or further when its row
   * stopped changing earlier than that (a late takeover: the applier may have stopped applying a stale age before).
   */
  public long replayFromMs(String datanodeUuid) {
    long from = clockMs.getAsLong() - handoverMs.getAsLong();
    Heard seen = heard.get(datanodeUuid);
    return seen == null ? from : Math.min(from, seen.seenAtMs() - staleMs);
  }

  /**
   * How long a namenode keeps the reports it leaves to another: the handover period plus the stale age, as far back
   * as {@link #replayFromMs} reaches.
   */
  public long keepMs() {
    return handoverMs.getAsLong() + staleMs;
  }

  /** The namenode that applies {@code datanodeUuid}'s reports in this view, or 0 when this one applies everything. */
  public long applierOf(String datanodeUuid) {
    List<NamenodeRecord> live = view.liveNamenodes();
    long self = view.selfId();
    if (self == 0 || live.size() <= 1) {
      return 0;
    }
    long hash = hash(datanodeUuid);
    long best = 0;
    long bestScore = 0;
    for (NamenodeRecord namenode : live) {
      long score = mix(hash ^ mix(namenode.id()));
      if (best == 0 || Long.compareUnsigned(score, bestScore) > 0) {
        best = namenode.id();
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * What to do with a report (or heartbeat) of {@code datanodeUuid} arriving now, {@code unheard} when its heartbeat
   * row is stale ({@link #unheard}); records the decision.
   */
  public Route route(String datanodeUuid, boolean unheard) {
    long applier = applierOf(datanodeUuid);
    boolean mine = unheard || applier == 0 || applier == view.selfId();
    long now = clockMs.getAsLong();
    long handover = handoverMs.getAsLong();
    Route[] route = new Route[1];
    states.compute(datanodeUuid, (uuid, before) -> {
      if (mine) {
        route[0] = before != null && !before.applier() ? Route.REPLAY_THEN_APPLY : Route.APPLY;
        return new State(true, 0);
      }
      long lostAtMs = before == null ? Long.MIN_VALUE : before.applier() ? now : before.lostAtMs();
      route[0] = lostAtMs != Long.MIN_VALUE && now - lostAtMs < handover ? Route.APPLY : Route.LEAVE;
      return new State(false, lostAtMs);
    });
    return route[0];
  }

  /** A 64-bit hash of the datanode's uuid (FNV-1a over its UTF-8 bytes, then mixed). */
  static long hash(String datanodeUuid) {
    long h = 0xcbf29ce484222325L;
    for (byte b : datanodeUuid.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  /** SplitMix64's finalizer: every input bit moves about half the output bits. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
