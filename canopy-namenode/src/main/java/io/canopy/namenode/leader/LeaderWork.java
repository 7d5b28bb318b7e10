package io.canopy.namenode.leader;

import java.io.IOException;

/**
 * One periodic leader-only duty (dead datanodes, replication, lease recovery, ...). {@link #run} is called only while
 * this namenode holds a valid leader lease, with the term every transaction of the duty must fence itself with
 * ({@link io.canopy.namenode.membership.LeaderFence#check}); a run that finds the term over stops quietly.
 */
public interface LeaderWork {
  String name();

  /** Pause between two runs. */
  long intervalMs();

  void run(long term) throws IOException;

  /**
   * Whether the duty runs while the cluster is in safe mode. Block housekeeping does not (HDFS neither copies nor
   * deletes replicas in safe mode, nor recovers leases, nor declares datanodes dead during startup).
   */
  default boolean runsInSafeMode() {
    return false;
  }
}
