package io.canopy.metadata.ignite;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.ignite.IgniteServer;
import org.apache.ignite.InitParameters;

/**
 * Ignite 3 server nodes in the test JVM, on free loopback ports, initialized as one cluster; closed with the test.
 * Page memory is kept small (256 MB a node).
 */
final class IgniteTestCluster implements AutoCloseable {
  private final List<IgniteServer> servers = new ArrayList<>();
  private final List<String> clientAddresses = new ArrayList<>();

  static IgniteTestCluster start(Path directory, int nodes) throws IOException {
    IgniteTestCluster cluster = new IgniteTestCluster();
    try {
      int[] networkPorts = new int[nodes];
      int[] clientPorts = new int[nodes];
      int[] restPorts = new int[nodes];
      for (int i = 0; i < nodes; i++) {
        networkPorts[i] = freePort();
        clientPorts[i] = freePort();
        restPorts[i] = freePort();
      }
      StringBuilder seeds = new StringBuilder();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        seeds.append(i == 0 ? "" : ", ").append("\"127.0.0.1:").append(networkPorts[i]).append('"');
        names.add("db-" + (i + 1));
      }
      for (int i = 0; i < nodes; i++) {
        Path work = Files.createDirectories(directory.resolve(names.get(i)));
        Path config = work.resolve("ignite-config.conf");
        Files.writeString(config, "ignite {\n"
            + "  network { port: " + networkPorts[i] + ", nodeFinder.netClusterNodes: [" + seeds + "] }\n"
            + "  clientConnector.port: " + clientPorts[i] + "\n"
            + "  rest.port: " + restPorts[i] + "\n"
            + "  storage.profiles: [ { name: default, engine: aipersist, sizeBytes: 268435456 } ]\n"
            + "}\n");
        cluster.servers.add(IgniteServer.start(names.get(i), config, work));
        cluster.clientAddresses.add("127.0.0.1:" + clientPorts[i]);
      }
      // Every node starts joining before the init: a node's join is begun by waitForInitAsync, and the initializing
      // node's own join needs a majority of the metastorage nodes joined (a synchronous init on db-1 first waits for
      // ever with three nodes)
      List<CompletableFuture<Void>> joins = new ArrayList<>();
      for (IgniteServer server : cluster.servers) {
        joins.add(server.waitForInitAsync());
      }
      // as canopy up's clusters: idle partitions move their safe time on every 100 ms, the cluster's every 20 ms
      // (design 020)
      cluster.servers.get(0).initClusterAsync(InitParameters.builder().metaStorageNodeNames(names)
          .clusterName("canopy-test")
          .clusterConfiguration("ignite { replication.idleSafeTimePropagationDurationMillis: 100, "
              + "system.idleSafeTimeSyncIntervalMillis: 20 }").build()).join();
      for (CompletableFuture<Void> join : joins) {
        join.join();
      }
      return cluster;
    } catch (RuntimeException | IOException e) {
      cluster.close();
      throw e;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The engine settings of a store on this cluster. */
  Map<String, String> settings() {
    return Map.of(IgniteSettings.ADDRESSES, String.join(",", clientAddresses), IgniteSettings.TIMEOUT_MS, "30000");
  }

  @Override
  public void close() {
    for (IgniteServer server : servers) {
      try {
        server.shutdown();
      } catch (RuntimeException e) {
        // stopping the others matters more
      }
    }
    servers.clear();
  }
}
