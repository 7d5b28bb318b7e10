package io.canopy.ignite.node;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ignite.IgniteServer;
import org.apache.ignite.InitParameters;

/**
 * Process entry point of one database node of a Canopy cluster on Apache Ignite 3 (design 020):
 * {@code IgniteNodeMain NAME CONFIG WORK_DIR [--init CLUSTER_NAME NODE,NODE,... CLUSTER_CONFIG_FILE]}.
 *
 * <p>Starts the Ignite server node NAME with its node configuration CONFIG (HOCON: ports, seed addresses, storage)
 * and its data in WORK_DIR. With {@code --init} (the first start of a cluster, on one node only) it initializes the
 * cluster once every listed node has joined: those nodes hold the cluster's meta storage and management group, and the
 * cluster configuration comes from CLUSTER_CONFIG_FILE. Prints {@code ready NAME} once the cluster is initialized and
 * this node serves it, and stops the node cleanly on SIGTERM or SIGINT.
 */
public final class IgniteNodeMain {
  /** How long the initializing node waits for the others to join. */
  static final Duration INIT_TIMEOUT = Duration.ofSeconds(180);
  private static final Duration INIT_RETRY = Duration.ofSeconds(1);

  private IgniteNodeMain() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3 && !(args.length == 7 && args[3].equals("--init"))) {
      usage("expected 3 arguments, or 7 with --init; got " + args.length + ": " + Arrays.toString(args));
    }
    String name = args[0];
    Path config = Path.of(args[1]).toAbsolutePath().normalize();
    Path work = Path.of(args[2]).toAbsolutePath().normalize();
    if (!Files.isRegularFile(config)) {
      usage("no node configuration file " + config);
    }
    Files.createDirectories(work);
    InitParameters init = args.length == 7 ? initParameters(args[4], args[5], Path.of(args[6])) : null;

    IgniteServer server = IgniteServer.start(name, config, work);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("stopping database node " + name);
      System.out.flush();
      try {
        server.shutdown();
      } finally {
        stopped.countDown();
      }
    }, "ignite-node-stop"));
    if (init != null) {
      initialize(server, init);
    }
    server.waitForInitAsync().get();
    System.out.println("ready " + name);
    System.out.flush();
    stopped.await();
  }

  private static InitParameters initParameters(String clusterName, String nodes, Path clusterConfigFile)
      throws java.io.IOException {
    List<String> names = Arrays.stream(nodes.split(",")).map(String::trim).filter(node -> !node.isEmpty()).toList();
    if (names.isEmpty()) {
      usage("--init names no node");
    }
    if (!Files.isRegularFile(clusterConfigFile)) {
      usage("no cluster configuration file " + clusterConfigFile);
    }
    return InitParameters.builder().clusterName(clusterName).metaStorageNodeNames(names).cmgNodeNames(names)
        .clusterConfiguration(Files.readString(clusterConfigFile)).build();
  }

  /**
   * Initializes the cluster, retrying while the other nodes have not joined yet (they are started at the same time),
   * within {@link #INIT_TIMEOUT}.
   */
  private static void initialize(IgniteServer server, InitParameters init) throws InterruptedException {
    long deadline = System.nanoTime() + INIT_TIMEOUT.toNanos();
    int attempt = 0;
    while (true) {
      attempt++;
      try {
        server.initClusterAsync(init).get(INIT_RETRY.toMillis() * 30, TimeUnit.MILLISECONDS);
        System.out.println("initialized the database cluster '" + init.clusterName() + "' on "
            + init.metaStorageNodeNames() + " (attempt " + attempt + ")");
        return;
      } catch (ExecutionException | TimeoutException e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (System.nanoTime() - deadline > 0) {
          System.err.println("IgniteNodeMain: could not initialize the cluster within " + INIT_TIMEOUT.toSeconds()
              + " s: " + cause);
          System.exit(1);
        }
        if (attempt == 1 || attempt % 10 == 0) {
          System.out.println("waiting for the database nodes " + init.metaStorageNodeNames() + " to join ("
              + cause.getMessage() + ")");
          System.out.flush();
        }
        Thread.sleep(INIT_RETRY.toMillis());
      }
    }
  }

  private static void usage(String problem) {
    System.err.println("IgniteNodeMain: " + problem);
    System.err.println("usage: IgniteNodeMain NAME CONFIG WORK_DIR [--init CLUSTER_NAME NODE,NODE,... "
        + "CLUSTER_CONFIG_FILE]");
    System.exit(2);
  }
}
