package io.canopy.namenode.datanode;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The full block reports this namenode processed while leading in its current term (HDFS's "block contents stale"
 * marks after a failover). Until every live datanode has sent one, the leader postpones deleting excess replicas and
 * replicas of unknown blocks: a replica record written before the leader change may be out of date, and a report
 * processed since is the datanode's own account. The startup safe mode counts the blocks on the storages listed here.
 *
 * <p>Datanodes report on their own schedule (hours apart), so the leader asks each datanode that has not reported in
 * its term to register again (a {@code DNA_REGISTER} answer to a heartbeat), which makes a stock DataNode send a full
 * report at once; it asks again after {@code askAgainMs} should that report not arrive. In memory only: a new leader
 * starts with nothing reported, which is what it must assume.
 */
public final class FullReportTracker {
  private final LongSupplier clockMs;
  private final long askAgainMs;
  private long term;
  /** Storages whose full report was processed in the term, by datanode uuid. */
  private final Map<String, Set<String>> reportedStorages = new HashMap<>();
  /** Datanodes whose whole full report (every RPC of a report split per storage) was processed in the term. */
  private final Set<String> reported = new HashSet<>();
  /** The RPCs seen of a full report split into several (one per storage), by datanode uuid and report id. */
  private final Map<String, Set<Integer>> partsSeen = new HashMap<>();
  /**
   * When each datanode that has not reported yet was asked to register again, or registered by itself (either way
   * its full report is on its way), in the term.
   */
  private final Map<String, Long> askedAtMs = new HashMap<>();

  public FullReportTracker(LongSupplier clockMs, long askAgainMs) {
    if (askAgainMs <= 0) {
      throw new IllegalArgumentException("the interval to ask for a full report again must be positive, got "
          + askAgainMs);
    }
    this.clockMs = clockMs;
    this.askAgainMs = askAgainMs;
  }

  /** Forgets everything of an older term; false when {@code currentTerm} is older than the one tracked. */
  private boolean at(long currentTerm) {
    if (currentTerm <= 0 || currentTerm < term) {
      return false;
    }
    if (currentTerm > term) {
      term = currentTerm;
      reportedStorages.clear();
      reported.clear();
      partsSeen.clear();
      askedAtMs.clear();
    }
    return true;
  }

  /**
   * One RPC of the datanode's full report, covering {@code storageIds}, was processed while this namenode led in
   * {@code term}: RPC {@code rpc} of {@code totalRpcs} of report {@code reportId} (a DataNode with very many blocks
   * sends one RPC per storage). The datanode counts as reported once every RPC of one report was.
   */
  public synchronized void reported(long term, String datanodeUuid, Collection<String> storageIds, long reportId,
      int rpc, int totalRpcs) {
    if (!at(term)) {
      return;
    }
    reportedStorages.computeIfAbsent(datanodeUuid, u -> new HashSet<>()).addAll(storageIds);
    boolean whole = totalRpcs <= 1;
    if (!whole) {
      Set<Integer> parts = partsSeen.computeIfAbsent(datanodeUuid + "/" + reportId, k -> new HashSet<>());
      parts.add(rpc);
      whole = parts.size() >= totalRpcs;
    }
    if (whole) {
      reported.add(datanodeUuid);
      askedAtMs.remove(datanodeUuid);
      partsSeen.keySet().removeIf(key -> key.startsWith(datanodeUuid + "/"));
    }
  }

  /** The datanode registered with this namenode while it led in {@code term}: it sends a full report by itself. */
  public synchronized void registered(long term, String datanodeUuid) {
    if (at(term) && !reported.contains(datanodeUuid)) {
      askedAtMs.put(datanodeUuid, clockMs.getAsLong());
    }
  }

  /**
   * Whether to answer this heartbeat of the datanode with "register again" so that it sends its full report: it has
   * not reported in {@code term}, and neither registered nor was asked within {@code askAgainMs}. Answering true
   * records the request.
   */
  public synchronized boolean askForReport(long term, String datanodeUuid) {
    if (!at(term) || reported.contains(datanodeUuid)) {
      return false;
    }
    long now = clockMs.getAsLong();
    Long asked = askedAtMs.get(datanodeUuid);
    if (asked != null && now - asked < askAgainMs) {
      return false;
    }
    askedAtMs.put(datanodeUuid, now);
    return true;
  }

  /** Whether every one of {@code datanodeUuids} has sent a full report in {@code term}. */
  public synchronized boolean allReported(long term, Collection<String> datanodeUuids) {
    return term == this.term && term > 0 && reported.containsAll(datanodeUuids);
  }

  /** Whether the datanode has sent a full report in {@code term}. */
  public synchronized boolean hasReported(long term, String datanodeUuid) {
    return term == this.term && term > 0 && reported.contains(datanodeUuid);
  }

  /** The storages reported in {@code term} (empty for another term). */
  public synchronized Set<String> reportedStorages(long term) {
    Set<String> storages = new HashSet<>();
    if (term == this.term) {
      reportedStorages.values().forEach(storages::addAll);
    }
    return storages;
  }
}
