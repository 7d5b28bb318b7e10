package io.canopy.namenode.metrics;

import io.canopy.metadata.NamespaceCensus;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The {@code FSNamesystem} record with HDFS's names for the namespace's and the cluster's state ({@code FilesTotal},
 * {@code BlocksTotal}, capacities, datanode counts, under-replicated, missing and corrupt blocks), plus Canopy's own:
 * inodes by kind, files kept in the database, live namenodes, the leader.
 */
final class FsNamesystemSource implements MetricsSource {
  private final ClusterStatusMonitor monitor;

  FsNamesystemSource(ClusterStatusMonitor monitor) {
    this.monitor = monitor;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    ClusterStatus status = monitor.current();
    NamespaceCensus.Counts namespace = status.namespace() == null ? new NamespaceCensus.Counts(-1, -1, -1, -1, -1)
        : status.namespace();
    boolean leader = status.namenodeId() == status.leaderId();
    collector.addRecord("FSNamesystem").setContext("dfs")
        .tag(Interns.info("HAState", "Every Canopy namenode serves clients"), "active")
        .tag(Interns.info("LeaderState", "Whether this namenode leads the group"), leader ? "leader" : "member")
        .tag(Interns.info("NamenodeId", "This namenode's id in the group"), Long.toString(status.namenodeId()))
        .addGauge(Interns.info("FilesTotal", "Inodes: files, directories and symbolic links"), namespace.inodes())
        .addGauge(Interns.info("BlocksTotal", "Blocks stored on datanodes"), namespace.blocks())
        .addGauge(Interns.info("Files", "Files"), namespace.files())
        .addGauge(Interns.info("Directories", "Directories"), namespace.directories())
        .addGauge(Interns.info("Symlinks", "Symbolic links"), namespace.symlinks())
        .addGauge(Interns.info("SmallFiles", "Files whose bytes are kept in the database"), namespace.smallFiles())
        .addGauge(Interns.info("CapacityTotal", "Capacity of the live datanodes, bytes"), status.capacity())
        .addGauge(Interns.info("CapacityUsed", "Used by blocks on the live datanodes, bytes"), status.used())
        .addGauge(Interns.info("CapacityRemaining", "Free on the live datanodes, bytes"), status.remaining())
        .addGauge(Interns.info("NumLiveDataNodes", "Live datanodes"), status.liveDatanodes())
        .addGauge(Interns.info("NumDeadDataNodes", "Dead datanodes"), status.deadDatanodes())
        .addGauge(Interns.info("UnderReplicatedBlocks", "Blocks with fewer replicas than wanted"),
            status.blocks().underReplicated())
        .addGauge(Interns.info("MissingBlocks", "Blocks without any replica"), status.blocks().missing())
        .addGauge(Interns.info("CorruptBlocks", "Blocks with corrupt replicas"), status.blocks().corrupt())
        .addGauge(Interns.info("PendingDeletionBlocks", "Replicas waiting to be deleted"),
            status.blocks().pendingDeletion())
        .addGauge(Interns.info("NumLiveNamenodes", "Namenodes in the group"), status.namenodes().size())
        .addGauge(Interns.info("LeaderId", "The leading namenode's id"), status.leaderId())
        .addGauge(Interns.info("SafeModeOn", "1 while the cluster is in safe mode"), status.safeMode() ? 1 : 0);
  }
}
