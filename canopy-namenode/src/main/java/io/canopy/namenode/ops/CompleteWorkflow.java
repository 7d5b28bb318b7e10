package io.canopy.namenode.ops;

import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.blocks.ReplicaArrivals;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * complete over as many transactions as it takes. The datanodes' confirmation of the last block usually arrives
 * within milliseconds of the client's complete; rather than answering false at once (the client then sleeps 400 ms
 * before asking again), the namenode waits for it, within {@link NameNodeConfig#COMPLETE_WAIT_MS}.
 */
public final class CompleteWorkflow {
  /**
   * How long a waiting complete trusts the report signal before it checks the database itself (a report applied
   * by another namenode only, e.g. one that restarted its datanode connections).
   */
  static final long REPORT_RECHECK_MS = 100;

  private final TransactionRunner runner;
  private final ReplicaArrivals arrivals;
  private final long waitMs;
  /** Bounds the handlers that wait in complete at once: other clients' calls still find one. */
  private final Semaphore waiters;
  /** How long another namenode's commit of a report received here takes to show. */
  private final CommitLagEstimate lag = new CommitLagEstimate();

  /** Waits at most {@code waitMs} per call (none when not positive), in at most {@code maxWaiters} calls at once. */
  public CompleteWorkflow(TransactionRunner runner, ReplicaArrivals arrivals, long waitMs, int maxWaiters) {
    if (maxWaiters < 1) {
      throw new IllegalArgumentException("complete needs at least 1 waiter, not " + maxWaiters);
    }
    this.runner = runner;
    this.arrivals = arrivals;
    this.waitMs = waitMs;
    this.waiters = new Semaphore(maxWaiters);
  }

  /**
   * Runs {@code complete}; when enough handlers already wait, answers at once (the client retries), else waits as
   * {@link #completeWithWait} does. {@code readiness} is the read-only check of the same file.
   */
  public boolean run(CompleteOp complete, CompleteReadinessOp readiness, long fileId, ExtendedBlock last)
      throws IOException {
    if (!waiters.tryAcquire()) {
      return runner.run(complete);
    }
    try {
      return completeWithWait(complete, readiness, fileId, last);
    } finally {
      waiters.release();
    }
  }

  /**
   * Runs complete; while it answers "not yet", waits for this namenode to apply a replica report of the file
   * ({@link ReplicaArrivals}) and runs complete again, until
   * the wait is spent. Without a report within {@link #REPORT_RECHECK_MS} (or without a file id to wait on) it polls
   * with a read-only readiness check (no lock, no commit) instead.
   *
   * <p>The client usually asks before the reports of its last block have come (it calls complete as soon as the
   * pipeline acknowledged the last packet, and the datanodes report after that): when this namenode has applied no
   * finalized-replica report of {@code last} recently, complete first waits up to {@link #REPORT_RECHECK_MS} for a
   * report of the file to be applied, rather than spending a transaction on "not yet" (design 013: about 1.9
   * complete transactions per file became 1).
   *
   * <p>Each datanode's reports are applied by one namenode (design 018). When this one only received the report of
   * {@code last} ({@link ReplicaArrivals#reportedElsewhere}), the waiter waits for the applier's commit as long as
   * such commits took lately ({@link CommitLagEstimate}), or until this namenode applies a report of the file
   * itself, then completes; when that answers "not yet", it polls the read-only check in short steps (2 ms doubling
   * to 64 ms) until the commit shows, then completes. Polling from the start took about two read-only transactions
   * per file besides complete's.
   */
  private boolean completeWithWait(CompleteOp complete, CompleteReadinessOp readiness, long fileId,
      ExtendedBlock last) throws IOException {
    long deadline = System.nanoTime() + waitMs * 1_000_000L;
    ReplicaArrivals.Expectation arrival = fileId > 0 ? expect(fileId, last) : null;
    try {
      if (arrival != null && last != null && !arrivals.finalizedReportedRecently(last.getBlockId())
          && !appliedElsewhere(last) && arrival.await(Math.min(waitMs, REPORT_RECHECK_MS))) {
        arrival.close();
        arrival = expect(fileId, last); // before complete: a report applied during it wakes the loop
      }
      boolean completeRan = false;
      if (arrival != null && appliedElsewhere(last)) {
        // Another namenode applies the report (design 018): its commit usually shows within the learnt lag. Wait
        // that long, or until this namenode applies a report of the file itself (from another datanode of the
        // pipeline), then complete; poll (below) only when that was too early.
        arrival.close();
        arrival = arrivals.expect(fileId); // woken by this namenode's own application only
        long estimate = lag.waitNanos();
        long allowed = Math.min(estimate, Math.max(0, deadline - System.nanoTime()));
        boolean local = arrival.awaitNanos(allowed);
        arrival.close();
        arrival = expect(fileId, last);
        completeRan = true;
        boolean completed = runner.run(complete);
        if (!local && allowed == estimate) { // only a full wait says whether the estimate was long enough
          if (completed) {
            lag.foundOnFirstTry();
          } else {
            lag.missedOnFirstTry();
          }
        }
        if (completed) {
          return true;
        }
      } else if (!appliedElsewhere(last)) {
        completeRan = true;
        if (runner.run(complete)) {
          return true;
        }
      }
      // When another namenode applies the report and its commit has not shown yet, it follows within milliseconds:
      // poll for it with the read-only check rather than spend a complete transaction on "not yet".
      long pauseMs = 2;
      while (true) {
        long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
        if (leftMs <= 0) {
          // complete commits the last block even when it answers "not yet": it runs at least once per call
          return !completeRan && runner.run(complete);
        }
        boolean reported;
        if (arrival != null && !appliedElsewhere(last)) {
          reported = arrival.await(Math.min(leftMs, REPORT_RECHECK_MS)) && !appliedElsewhere(last);
          arrival.close();
          arrival = expect(fileId, last); // before the re-check: a report applied during it wakes us
        } else {
          Thread.sleep(Math.min(leftMs, pauseMs));
          pauseMs = Math.min(pauseMs * 2, 64);
          reported = false;
        }
        if (reported || runner.run(readiness)) {
          completeRan = true;
          if (runner.run(complete)) {
            return true;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      if (arrival != null) {
        arrival.close();
      }
    }
  }

  private ReplicaArrivals.Expectation expect(long fileId, ExtendedBlock last) {
    return last == null ? arrivals.expect(fileId) : arrivals.expect(fileId, last.getBlockId());
  }

  /** Whether the last block's finalized replica was reported here but is applied by another namenode only. */
  private boolean appliedElsewhere(ExtendedBlock last) {
    return last != null && arrivals.reportedElsewhereRecently(last.getBlockId())
        && !arrivals.finalizedReportedRecently(last.getBlockId());
  }

}
