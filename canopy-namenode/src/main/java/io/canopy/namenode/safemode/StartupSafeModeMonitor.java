package io.canopy.namenode.safemode;

import io.canopy.metadata.BlockCensus;
import io.canopy.namenode.blocks.DatanodeRegistry;
import io.canopy.namenode.datanode.FullReportTracker;
import io.canopy.namenode.fs.SafeMode;
import io.canopy.namenode.leader.LeaderWork;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's startup safe mode duty (HDFS's BlockManagerSafeMode and its monitor), every {@code
 * canopy.namenode.safemode.recheck-ms} while the startup safe mode is on: counts the complete blocks and those with
 * enough good replicas on the storages that sent this leader a full report in its term ({@link FullReportTracker};
 * the leader asks every datanode for one), and the live datanodes, then lets {@link StartupSafeModeStepOp} store the
 * counts and end safe mode when HDFS's thresholds are met. A new leader counts afresh from the reports it receives.
 */
public final class StartupSafeModeMonitor implements LeaderWork {
  /** HDFS reports the safe mode status in the log every 20 s. */
  private static final long STATUS_LOG_INTERVAL_MS = 20_000;
  private static final Logger LOG = LoggerFactory.getLogger(StartupSafeModeMonitor.class);

  private final TransactionRunner runner;
  private final BlockCensus census;
  private final SafeMode safeMode;
  private final FullReportTracker reports;
  private final DatanodeRegistry registry;
  private final LongSupplier clockMs;
  private long lastStatusLogMs = Long.MIN_VALUE;

  public StartupSafeModeMonitor(TransactionRunner runner, BlockCensus census, SafeMode safeMode,
      FullReportTracker reports, DatanodeRegistry registry, LongSupplier clockMs) {
    this.runner = runner;
    this.census = census;
    this.safeMode = safeMode;
    this.reports = reports;
    this.registry = registry;
    this.clockMs = clockMs;
  }

  @Override
  public String name() {
    return "startupSafeMode";
  }

  @Override
  public long intervalMs() {
    return safeMode.settings().recheckMs();
  }

  @Override
  public boolean runsInSafeMode() {
    return true;
  }

  @Override
  public void run(long term) throws IOException {
    if (!safeMode.state().startup()) {
      return;
    }
    SafeModeSettings settings = safeMode.settings();
    long total = census.completeBlocks();
    long safe = census.completeBlocksWithReplicasOn(reports.reportedStorages(term), settings.safeReplication());
    int live = registry.live().size();
    List<String> registered = new ArrayList<>();
    for (DatanodeRegistry.Node node : registry.all()) {
      if (!node.record().isDeclaredDead()) {
        registered.add(node.record().uuid());
      }
    }
    boolean everyoneReported = !registered.isEmpty() && reports.allReported(term, registered);
    long now = clockMs.getAsLong();
    SafeModeState state = runner.run(new StartupSafeModeStepOp(settings, term,
        new StartupSafeModeStepOp.Counts(safe, total, live, everyoneReported), now));
    safeMode.changed(state);
    if (!state.startup()) {
      LOG.info("STATE* Safe mode is OFF: {} of {} complete blocks reported by {} live datanode(s){}", safe, total,
          live, everyoneReported ? ", every registered datanode has reported" : "");
    } else if (now - lastStatusLogMs >= STATUS_LOG_INTERVAL_MS) {
      lastStatusLogMs = now;
      LOG.info("STATE* Safe mode ON. {}", state.tip(settings, now));
    }
  }
}
