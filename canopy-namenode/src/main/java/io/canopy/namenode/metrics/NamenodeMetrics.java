package io.canopy.namenode.metrics;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namenode's Hadoop metrics2 sources ({@code NameNodeActivity}, {@code FSNamesystem}), registered with the
 * process's metrics system (prefix {@code NameNode}): JMX publishes them at {@code /jmx}, and the HTTP server's
 * Prometheus sink at {@code /prom}; and the thread of their own that refreshes the {@link ClusterStatusMonitor} they
 * read (its counts may wait on the database, which must not hold up the namenode's housekeeping). A process running
 * several namenodes (tests) names the later ones' sources {@code NAME-2}, {@code NAME-3}, ...; {@link #close}
 * unregisters them and stops the thread.
 */
public final class NamenodeMetrics implements AutoCloseable {
  /** Namenodes that registered in this process: the first keeps HDFS's names. */
  private static final AtomicInteger REGISTERED = new AtomicInteger();

  private static final Logger LOG = LoggerFactory.getLogger(NamenodeMetrics.class);

  private final MetricsSystem system;
  private final List<String> names;
  private final ScheduledExecutorService refresher;

  private NamenodeMetrics(MetricsSystem system, List<String> names, ScheduledExecutorService refresher) {
    this.system = system;
    this.names = names;
    this.refresher = refresher;
  }

  /** Refreshes {@code monitor} every {@code intervalMs} on a thread of its own and registers the sources. */
  public static NamenodeMetrics start(ClusterStatusMonitor monitor, long intervalMs) {
    ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "canopy-status");
      thread.setDaemon(true);
      return thread;
    });
    refresher.scheduleWithFixedDelay(() -> {
      try {
        monitor.refresh();
      } catch (RuntimeException e) {
        LOG.warn("Cannot refresh the cluster status: {}", e.toString());
      }
    }, 0, intervalMs, TimeUnit.MILLISECONDS);
    MetricsSystem system = DefaultMetricsSystem.initialize("NameNode");
    int number = REGISTERED.incrementAndGet();
    String suffix = number == 1 ? "" : "-" + number;
    String activity = "NameNodeActivity" + suffix;
    String namesystem = "FSNamesystem" + suffix;
    system.register(activity, "Canopy namenode operations", new NameNodeActivitySource(monitor));
    system.register(namesystem, "Canopy namespace and cluster state", new FsNamesystemSource(monitor));
    return new NamenodeMetrics(system, List.of(activity, namesystem), refresher);
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    names.forEach(system::unregisterSource);
  }
}
