package io.canopy.namenode.leases;

import io.canopy.metadata.entity.Lease;
import io.canopy.metadata.entity.LeasePath;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.membership.NotLeaderException;
import io.canopy.namenode.ops.DeleteIdleLeaseOp;
import io.canopy.namenode.ops.ExpiredLeasesOp;
import io.canopy.namenode.ops.LeaseFilesOp;
import io.canopy.namenode.ops.ReleaseLeaseOp;
import io.canopy.namenode.ops.ReleaseOutcome;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's lease monitor (HDFS's LeaseManager.Monitor), run every {@code dfs.namenode.lease-recheck-interval-ms}:
 *
 * <ol>
 *   <li>files under recovery (the recovery holder's lease paths) with no attempt of this leader in flight get a new
 *       attempt: a first one after a client started the recovery or a new leader took over, another one after a
 *       timeout;</li>
 *   <li>leases past the hard limit, oldest first: each file of the holder is released ({@link ReleaseLeaseOp}:
 *       closed at once, or put under recovery and dispatched), then the holder's lease row is deleted once it holds
 *       no file.</li>
 * </ol>
 *
 * Every transaction is fenced by the leader term; each run touches at most {@link #MAX_FILES_PER_RUN} files and
 * {@link #MAX_LEASES_PER_RUN} leases, the rest waits for the next run.
 */
public final class LeaseMonitor implements LeaderWork {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseMonitor.class);
  /** Leases or lease paths read per round trip. */
  static final int PAGE = 100;
  /** Files released or checked per run, at most. */
  static final int MAX_FILES_PER_RUN = 1000;
  /** Expired leases visited per run, at most. */
  static final int MAX_LEASES_PER_RUN = 1000;

  private final NamespaceServices services;
  private final TransactionRunner runner;
  private final BlockRecoveryDispatcher dispatcher;
  private final LeaseLimits limits;
  private final long intervalMs;
  private final LongSupplier clockMs;

  public LeaseMonitor(NamespaceServices services, TransactionRunner runner, BlockRecoveryDispatcher dispatcher,
      LeaseLimits limits, long intervalMs, LongSupplier clockMs) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException(DFSConfigKeys.DFS_NAMENODE_LEASE_RECHECK_INTERVAL_MS_KEY
          + " must be positive, got " + intervalMs);
    }
    this.services = services;
    this.runner = runner;
    this.dispatcher = dispatcher;
    this.limits = limits;
    this.intervalMs = intervalMs;
    this.clockMs = clockMs;
  }

  /** {@code dfs.namenode.lease-recheck-interval-ms}, HDFS's key and default (2 s). */
  public static long intervalMs(Configuration conf) {
    return conf.getLong(DFSConfigKeys.DFS_NAMENODE_LEASE_RECHECK_INTERVAL_MS_KEY,
        DFSConfigKeys.DFS_NAMENODE_LEASE_RECHECK_INTERVAL_MS_DEFAULT);
  }

  @Override
  public String name() {
    return "lease-monitor";
  }

  @Override
  public long intervalMs() {
    return intervalMs;
  }

  @Override
  public void run(long term) throws IOException {
    int[] budget = {MAX_FILES_PER_RUN};
    driveRecoveries(term, budget);
    releaseExpired(term, clockMs.getAsLong() - limits.hardLimitMs(), budget);
  }

  /** Files under recovery without an attempt in flight get one. */
  private void driveRecoveries(long term, int[] budget) throws IOException {
    Set<Long> underRecovery = new HashSet<>();
    long after = Long.MIN_VALUE;
    while (budget[0] > 0) {
      int limit = Math.min(PAGE, budget[0]);
      List<LeasePath> page = runner.run(new LeaseFilesOp(LeaseLimits.RECOVERY_HOLDER, after, limit));
      for (LeasePath path : page) {
        budget[0]--;
        underRecovery.add(path.inodeId());
        if (!dispatcher.inFlight(path.inodeId(), term)) {
          release(path, Long.MAX_VALUE, term);
        }
      }
      if (page.size() < limit) {
        dispatcher.retainOnly(underRecovery); // every file under recovery was seen: drop attempts of the others
        return;
      }
      after = page.get(page.size() - 1).inodeId();
    }
  }

  /** Releases the files of leases renewed before {@code renewedBeforeMs}, then deletes the leases left idle. */
  private void releaseExpired(long term, long renewedBeforeMs, int[] budget) throws IOException {
    Lease after = null;
    int visited = 0;
    while (budget[0] > 0 && visited < MAX_LEASES_PER_RUN) {
      List<Lease> page = runner.run(new ExpiredLeasesOp(renewedBeforeMs, after, PAGE));
      for (Lease lease : page) {
        visited++;
        boolean released = lease.holder().equals(LeaseLimits.RECOVERY_HOLDER)
            || releaseFilesOf(lease, renewedBeforeMs, term, budget);
        if (released && runner.run(new DeleteIdleLeaseOp(lease.holder(), renewedBeforeMs, term))) {
          LOG.info("Lease of {} expired (last renewed {} ms ago, hard limit {} s) and holds no file: deleted",
              lease.holder(), clockMs.getAsLong() - lease.lastRenewedMs(), limits.hardLimitMs() / 1000);
        }
      }
      if (page.size() < PAGE) {
        return;
      }
      after = page.get(page.size() - 1);
    }
  }

  /**
   * Releases every file of an expired lease within the budget; true when none is left to visit, false as well when
   * the holder turns out to have renewed its lease meanwhile.
   */
  private boolean releaseFilesOf(Lease lease, long renewedBeforeMs, long term, int[] budget) throws IOException {
    long after = Long.MIN_VALUE;
    while (budget[0] > 0) {
      int limit = Math.min(PAGE, budget[0]);
      List<LeasePath> page = runner.run(new LeaseFilesOp(lease.holder(), after, limit));
      if (!page.isEmpty()) {
        LOG.info("Lease of {} is past the hard limit ({} s, last renewed {} ms ago): releasing {} file(s)",
            lease.holder(), limits.hardLimitMs() / 1000, clockMs.getAsLong() - lease.lastRenewedMs(), page.size());
      }
      for (LeasePath path : page) {
        budget[0]--;
        if (release(path, renewedBeforeMs, term) == ReleaseOutcome.Kind.RENEWED) {
          return false;
        }
      }
      if (page.size() < limit) {
        return true;
      }
      after = page.get(page.size() - 1).inodeId();
    }
    return false;
  }

  /**
   * One file: released in a fenced transaction (unless its holder renewed after {@code renewedBeforeMs}); a failure
   * is logged and the file retried next run. Returns what happened, null after a failure.
   */
  private ReleaseOutcome.Kind release(LeasePath path, long renewedBeforeMs, long term) throws NotLeaderException {
    ReleaseOutcome outcome;
    try {
      outcome = runner.run(new ReleaseLeaseOp(services, path.inodeId(), path.holder(), renewedBeforeMs, term));
    } catch (NotLeaderException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot release the lease of {} on inode {}; retrying in {} ms: {}", path.holder(), path.inodeId(),
          intervalMs, e.toString());
      return null;
    }
    switch (outcome.kind()) {
      case RECOVERING -> {
        LOG.info("Lease of {} on file {} (inode {}): {}", path.holder(), outcome.task().fileName(),
            path.inodeId(), outcome.detail());
        try {
          dispatcher.dispatch(outcome.task(), term);
        } catch (IOException e) {
          LOG.warn("Cannot dispatch the recovery of inode {}; retrying in {} ms: {}", path.inodeId(), intervalMs,
              e.toString());
        }
      }
      case CLOSED -> {
        dispatcher.forget(path.inodeId());
        LOG.info("Lease of {} on inode {} released: {}", path.holder(), path.inodeId(), outcome.detail());
      }
      case NOT_OPEN -> {
        dispatcher.forget(path.inodeId());
        LOG.info("Lease path of {} on inode {} removed: {}", path.holder(), path.inodeId(), outcome.detail());
      }
      case RENEWED -> LOG.info("Lease of {} on inode {} kept: {}", path.holder(), path.inodeId(), outcome.detail());
      default -> LOG.debug("Lease of {} on inode {} not released yet: {}", path.holder(), path.inodeId(),
          outcome.detail());
    }
    return outcome.kind();
  }
}
