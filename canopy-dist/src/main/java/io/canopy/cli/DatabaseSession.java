package io.canopy.cli;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.metadata.postgres.Postmaster;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;

/**
 * The metadata store of a cluster for one CLI command. Uses the cluster's database when it runs; otherwise starts
 * the embedded PostgreSQL on DIR/db inside this JVM, on a free port, for the duration of the command only. The
 * caller holds the {@link ClusterLock} so that no {@code canopy up} starts the database meanwhile.
 */
final class DatabaseSession implements AutoCloseable {
  private static final Duration ORPHAN_STOP_TIMEOUT = Duration.ofSeconds(30);

  private final MetadataStore store;
  private final EmbeddedPostgresServer temporaryServer;

  private DatabaseSession(MetadataStore store, EmbeddedPostgresServer temporaryServer) {
    this.store = store;
    this.temporaryServer = temporaryServer;
  }

  private static boolean onIgnite(ClusterLayout layout) {
    return ClusterProperties.load(layout.propertiesFile()).map(ClusterProperties::onIgnite).orElse(false);
  }

  /**
   * A cluster on Ignite whose database nodes canopy runs is reached only while they run: this command starts none
   * (a majority of them must serve).
   */
  private static void requireIgniteNodes(ClusterLayout layout) throws IOException {
    ClusterProperties cluster = ClusterProperties.load(layout.propertiesFile()).orElse(null);
    if (cluster == null || !cluster.onIgnite()) {
      return;
    }
    Daemons daemons = new Daemons(layout);
    java.util.List<Role> stopped = cluster.databaseRoles().stream()
        .filter(node -> daemons.running(node).isEmpty()).toList();
    if (!stopped.isEmpty()) {
      throw new CliException("The Ignite database nodes of " + layout.root() + " are not all running (stopped: "
          + Role.names(stopped) + "); start the cluster with `canopy up --dir " + layout.root() + "`");
    }
  }

  /** Work done with a cluster's metadata store. */
  interface Work<T> {
    T apply(MetadataStore store) throws IOException;
  }

  /**
   * Runs {@code work} on the metadata store of the cluster in {@code layout}, logged in as {@code login}: its running
   * (or external) database, else the embedded one started for this command only, under the {@link ClusterLock} so
   * that no {@code canopy up} starts it meanwhile.
   */
  static <T> T withStore(ClusterLayout layout, MetadataAccess.Login login, PrintWriter err, Work<T> work)
      throws IOException {
    requireIgniteNodes(layout);
    if (ClusterProperties.externalDatabase(layout) || new Daemons(layout).running(Role.DATABASE).isPresent()
        || onIgnite(layout)) {
      try (DatabaseSession session = open(layout, login, err)) {
        return work.apply(session.store());
      }
    }
    if (!Files.isDirectory(layout.databaseDir())) {
      throw new CliException("The cluster in " + layout.root() + " has no database yet (" + layout.databaseDir()
          + " is missing); start it with `canopy up --dir " + layout.root() + "`");
    }
    try (ClusterLock lock = ClusterLock.acquire(layout); DatabaseSession session = open(layout, login, err)) {
      return work.apply(session.store());
    }
  }

  static DatabaseSession open(ClusterLayout layout, MetadataAccess.Login login, PrintWriter err) throws IOException {
    requireIgniteNodes(layout);
    if (ClusterProperties.externalDatabase(layout) || new Daemons(layout).running(Role.DATABASE).isPresent()
        || onIgnite(layout)) {
      return new DatabaseSession(MetadataAccess.open(layout, login), null);
    }
    Optional<ProcessHandle> postmaster = Postmaster.running(layout.databaseDir());
    if (postmaster.isPresent() && Postmaster.launcherHoldsLock(layout.databaseDir())) {
      throw new CliException("PostgreSQL pid " + postmaster.get().pid() + " serves " + layout.databaseDir() + " for a "
          + "launcher canopy has no pid file of (" + layout.pidFile(Role.DATABASE) + "); stop it with `canopy down "
          + "--dir " + layout.root() + "` and try again");
    }
    Optional<ProcessHandle> orphan = postmaster;
    if (orphan.isPresent()) {
      err.println("stopping PostgreSQL pid " + orphan.get().pid() + ", left running on " + layout.databaseDir()
          + " without its launcher");
      if (!Postmaster.stop(orphan.get(), ORPHAN_STOP_TIMEOUT)) {
        throw new CliException("PostgreSQL pid " + orphan.get().pid() + " still holds " + layout.databaseDir()
            + "; stop it by hand (kill " + orphan.get().pid() + ")");
      }
    }
    Postmaster.clearStalePidFile(layout.databaseDir());
    err.println("The database of " + layout.root() + " is not running: starting it in this process for this "
        + "command only");
    err.flush();
    EmbeddedPostgresServer server = EmbeddedPostgresServer.start(layout.databaseDir(), layout.secretsDir(), 0);
    try {
      return new DatabaseSession(MetadataAccess.open(layout, login, server.jdbcUrl()), server);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  MetadataStore store() {
    return store;
  }

  @Override
  public void close() throws IOException {
    try {
      store.close();
    } finally {
      if (temporaryServer != null) {
        temporaryServer.close();
      }
    }
  }
}
