package io.canopy.namenode.metrics;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * A namenode's Hadoop metrics2 sources ({@code NameNodeActivity}, {@code FSNamesystem}), registered with the
 * process's metrics system (prefix {@code NameNode}): JMX publishes them at {@code /jmx}, and the HTTP server's
 * Prometheus sink at {@code /prom}. A process running several namenodes (tests) names the later ones' sources
 * {@code NAME-2}, {@code NAME-3}, ...; {@link #close} unregisters them.
 */
public final class NamenodeMetrics implements AutoCloseable {
  /** Namenodes that registered in this process: the first keeps HDFS's names. */
  private static final AtomicInteger REGISTERED = new AtomicInteger();

  private final MetricsSystem system;
  private final List<String> names;

  private NamenodeMetrics(MetricsSystem system, List<String> names) {
    this.system = system;
    this.names = names;
  }

  public static NamenodeMetrics register(ClusterStatusMonitor monitor) {
    MetricsSystem system = DefaultMetricsSystem.initialize("NameNode");
    int number = REGISTERED.incrementAndGet();
    String suffix = number == 1 ? "" : "-" + number;
    String activity = "NameNodeActivity" + suffix;
    String namesystem = "FSNamesystem" + suffix;
    system.register(activity, "Canopy namenode operations", new NameNodeActivitySource(monitor));
    system.register(namesystem, "Canopy namespace and cluster state", new FsNamesystemSource(monitor));
    return new NamenodeMetrics(system, List.of(activity, namesystem));
  }

  @Override
  public void close() {
    names.forEach(system::unregisterSource);
  }
}
