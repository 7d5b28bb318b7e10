package io.canopy.namenode.leader;

import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.membership.LeaderElection;
import io.canopy.namenode.membership.NotLeaderException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the leader-only duties on their own thread, each at its interval, and only while this namenode's leader
 * lease holds (and, for most, while the cluster is out of safe mode). Every namenode runs this; on all but the
 * leader every run is a no-op.
 */
public final class LeaderDuties implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderDuties.class);

  private final LeaderElection election;
  private final SafeMode safeMode;
  private final ScheduledExecutorService executor;

  public LeaderDuties(LeaderElection election, SafeMode safeMode, List<LeaderWork> duties) {
    this.election = election;
    this.safeMode = safeMode;
    this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "canopy-leader-duties");
      thread.setDaemon(true);
      return thread;
    });
    for (LeaderWork work : duties) {
      executor.scheduleWithFixedDelay(() -> runOnce(work), work.intervalMs(), work.intervalMs(),
          TimeUnit.MILLISECONDS);
    }
  }

  private void runOnce(LeaderWork work) {
    OptionalLong term = election.leaderTerm();
    if (term.isEmpty() || safeMode.isOn() && !work.runsInSafeMode()) {
      return;
    }
    try {
      work.run(term.getAsLong());
    } catch (NotLeaderException e) {
      LOG.info("Leader duty {} stopped: {}", work.name(), e.getMessage());
    } catch (Exception e) {
      LOG.warn("Leader duty {} failed; it runs again in {} ms", work.name(), work.intervalMs(), e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
