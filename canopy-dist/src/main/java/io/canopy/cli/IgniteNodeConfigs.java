package io.canopy.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of a cluster's Ignite database nodes (design 020): each node's configuration
 * ({@code DIR/etc/db-K/ignite-node.conf}: its ports on 127.0.0.1, every node's network address as the seed list, the
 * storage profile, fsync of the Raft log when a single node holds every copy) and the cluster configuration the first
 * start initializes the cluster with ({@code DIR/etc/ignite-cluster.conf}).
 */
final class IgniteNodeConfigs {
  static final String NODE_FILE = "ignite-node.conf";
  static final String CLUSTER_FILE = "ignite-cluster.conf";
  /**
   * The partitions' idle safe-time propagation: Ignite's default of 1000 ms made every unlocked scan wait for up to a
   * second; with 100 ms the Spotify mix's read file p50 was 749 and 1,505 ms against 2,088 and 1,983 ms (design 020).
   */
  static final int IDLE_SAFE_TIME_PROPAGATION_MS = 100;
  /**
   * How often the metadata storage group moves the cluster's safe time on when idle: a query outside a transaction
   * waits for it to reach the query's time before it runs, so Ignite's default of 250 ms made every unlocked scan
   * take about 245 ms. Measured on 3 idle nodes (scan mean; the nodes' CPU): 250 ms 246 ms, 0.23-0.37 cores; 50 ms
   * 55 ms, 0.28-0.32; 20 ms 20-30 ms, 0.36; 10 ms 12-16 ms, 0.50-0.53 (design 020).
   */
  static final int IDLE_SAFE_TIME_SYNC_MS = 20;
  /** The name the database cluster is initialized with. */
  static final String CLUSTER_NAME = "canopy";
  /** Page memory of a node's persistent storage profile: a cache of its pages, the rest on disk. */
  static final long PAGE_MEMORY_BYTES = 256L * 1024 * 1024;

  private IgniteNodeConfigs() {
  }

  static Path nodeFile(ClusterLayout layout, Role node) {
    return layout.confDir(node).resolve(NODE_FILE);
  }

  static Path clusterFile(ClusterLayout layout) {
    return layout.etc().resolve(CLUSTER_FILE);
  }

  /** Writes every database node's configuration and the cluster configuration of {@code cluster}. */
  static void writeAll(ClusterLayout layout, ClusterProperties cluster) throws IOException {
    List<Role> nodes = cluster.databaseRoles();
    List<String> seeds = new ArrayList<>();
    for (Role node : nodes) {
      seeds.add("\"127.0.0.1:" + cluster.portOf(ClusterProperties.networkPortKey(node)) + "\"");
    }
    for (Role node : nodes) {
      Files.createDirectories(layout.confDir(node));
      Files.writeString(nodeFile(layout, node), nodeConfig(cluster, node, seeds));
    }
    Files.createDirectories(layout.etc());
    Files.writeString(clusterFile(layout), "# Written by canopy up: the configuration the Ignite cluster of "
        + layout.root() + " was initialized with (read on its first start only).\n"
        + "ignite {\n"
        + "  # How often an idle partition moves its safe time on: a query outside a transaction (listings, a file's\n"
        + "  # blocks in a read) waits for it to reach the present; 1000 ms by default (design 020)\n"
        + "  replication.idleSafeTimePropagationDurationMillis: " + IDLE_SAFE_TIME_PROPAGATION_MS + "\n"
        + "  # How often the cluster's own safe time moves on when idle: every query outside a transaction waits for\n"
        + "  # it to reach the query's time; 250 ms by default (design 020)\n"
        + "  system.idleSafeTimeSyncIntervalMillis: " + IDLE_SAFE_TIME_SYNC_MS + "\n"
        + "}\n");
  }

  private static String nodeConfig(ClusterProperties cluster, Role node, List<String> seeds) {
    // One node holds every copy: a commit must reach its disk before it is acknowledged. With several, a majority
    // of processes holds it (Ignite's default, design 020).
    boolean fsync = cluster.databaseNodes() == 1;
    return "# Written by canopy up for " + node + "; rewritten by every canopy up.\n"
        + "ignite {\n"
        + "  network {\n"
        + "    port: " + cluster.portOf(ClusterProperties.networkPortKey(node)) + "\n"
        + "    listenAddresses: [\"127.0.0.1\"]\n"
        + "    nodeFinder.netClusterNodes: [" + String.join(", ", seeds) + "]\n"
        + "  }\n"
        + "  clientConnector {\n"
        + "    port: " + cluster.port(node) + "\n"
        + "    listenAddresses: [\"127.0.0.1\"]\n"
        + "  }\n"
        + "  rest.port: " + cluster.portOf(ClusterProperties.restPortKey(node)) + "\n"
        + "  storage.profiles: [ { name: default, engine: aipersist, sizeBytes: " + PAGE_MEMORY_BYTES + " } ]\n"
        + "  raft.fsync: " + fsync + "\n"
        + "}\n";
  }
}
