package io.canopy.cli;

import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.ignite.IgniteSettings;
import io.canopy.metadata.postgres.DatabaseLogin;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.metadata.postgres.PostgresSettings;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the command line and the namenodes log in to a cluster's metadata database (docs/design/010), as one of two
 * roles: the owner (namenodes, and {@code up} and {@code format}, which write and migrate) or the read-only reader
 * ({@code sql}, {@code admin}). The settings come from the cluster directory, never from the client configuration,
 * which holds no credential: for the embedded database the roles' password files in DIR/secrets, for an external one
 * the {@code -D} settings kept in cluster.properties.
 */
final class MetadataAccess {
  /** The role a command logs in as. */
  enum Login { OWNER, READER }

  private static final String CLI_POOL_SIZE = "2";
  /** Copies of each partition when -D does not say: one per database node, at most this many. */
  static final int MAX_DEFAULT_REPLICAS = 3;
  /** -D keys that name a login: they are for an external database; the embedded one's logins are generated. */
  private static final String[] LOGIN_KEYS = {PostgresSettings.USER, PostgresSettings.PASSWORD,
      PostgresSettings.PASSWORD_FILE, PostgresSettings.READER_USER, PostgresSettings.READER_PASSWORD_FILE};

  private MetadataAccess() {
  }

  /** The store of the cluster in {@code layout} as {@code login}; a small pool: the CLI runs one thing at a time. */
  static MetadataStore open(ClusterLayout layout, Login login) throws StoreException {
    ClusterProperties cluster = cluster(layout);
    return open(settings(layout, cluster, login, cluster.externalDatabase() || cluster.onIgnite() ? null
        : embeddedJdbcUrl(cluster)));
  }

  /** The same on an embedded database served at {@code jdbcUrl} (one started for this command only). */
  static MetadataStore open(ClusterLayout layout, Login login, String jdbcUrl) throws StoreException {
    ClusterProperties cluster = cluster(layout);
    return open(settings(layout, cluster, login, jdbcUrl));
  }

  private static MetadataStore open(Map<String, String> settings) throws StoreException {
    settings.put(MetadataConfig.POOL_SIZE, CLI_POOL_SIZE);
    return MetadataStoreProvider.open(MetadataConfig.engine(settings), settings);
  }

  private static ClusterProperties cluster(ClusterLayout layout) {
    layout.requireCluster();
    return ClusterProperties.load(layout.propertiesFile()).orElseThrow();
  }

  /** Where the embedded database of {@code cluster} listens. */
  static String embeddedJdbcUrl(ClusterProperties cluster) {
    return "jdbc:postgresql://127.0.0.1:" + cluster.port(Role.DATABASE) + "/" + EmbeddedPostgresServer.DATABASE;
  }

  /**
   * The {@code canopy.metadata.*} settings of {@code login}: the cluster's -D settings of that prefix (timeouts,
   * engine...), then the login itself; {@code embeddedJdbcUrl} is used only when the database is the embedded one.
   */
  static Map<String, String> settings(ClusterLayout layout, ClusterProperties cluster, Login login,
      String embeddedJdbcUrl) {
    Map<String, String> settings = new TreeMap<>();
    cluster.overrides().forEach((key, value) -> {
      if (key.startsWith(MetadataConfig.PREFIX)) {
        settings.put(key, value);
      }
    });
    if (cluster.onIgnite()) {
      return igniteSettings(cluster, settings);
    }
    if (cluster.externalDatabase()) {
      return login == Login.OWNER ? settings : externalReader(layout, settings);
    }
    for (String key : LOGIN_KEYS) {
      settings.remove(key);
    }
    DatabaseLogin role = login == Login.OWNER ? EmbeddedPostgresServer.owner(layout.secretsDir())
        : EmbeddedPostgresServer.reader(layout.secretsDir());
    settings.putAll(PostgresSettings.login(embeddedJdbcUrl, role));
    if (login == Login.READER) {
      settings.put(PostgresSettings.MIGRATE, "false");
    }
    return settings;
  }

  /**
   * A cluster on Ignite (design 020): the engine, the client addresses of the nodes canopy runs (unless -D names an
   * external cluster's) and, unless -D says otherwise, a copy of each partition on every node up to three (a majority
   * of three survives the loss of one). The engine has no logins yet: both roles connect alike.
   */
  private static Map<String, String> igniteSettings(ClusterProperties cluster, Map<String, String> settings) {
    settings.put(MetadataConfig.ENGINE, ClusterProperties.IGNITE);
    if (!cluster.externalDatabase()) {
      settings.put(IgniteSettings.ADDRESSES, String.join(",", cluster.databaseNodeClientAddresses()));
      settings.putIfAbsent(IgniteSettings.REPLICAS, Integer.toString(Math.min(MAX_DEFAULT_REPLICAS,
          cluster.databaseNodes())));
    }
    return settings;
  }

  /**
   * The client addresses of the database nodes as namenode {@code namenodeIndex} (1-based) lists them: its home node
   * first (db-1 for namenode 1, db-2 for namenode 2, ..., round the nodes again past the last), then the others in
   * order. A namenode talks to one node at a time, its home while it answers (design 020, "A node kill"), so the
   * namenodes' requests spread over the nodes.
   */
  static List<String> homeFirst(List<String> addresses, int namenodeIndex) {
    if (namenodeIndex < 1) {
      throw new IllegalArgumentException("namenode indexes start at 1, got " + namenodeIndex);
    }
    int home = (namenodeIndex - 1) % addresses.size();
    List<String> ordered = new java.util.ArrayList<>(addresses.subList(home, addresses.size()));
    ordered.addAll(addresses.subList(0, home));
    return ordered;
  }

  /** The owner's settings turned into the reader's: its own user and password file, no migration. */
  private static Map<String, String> externalReader(ClusterLayout layout, Map<String, String> settings) {
    String user = settings.remove(PostgresSettings.READER_USER);
    String passwordFile = settings.remove(PostgresSettings.READER_PASSWORD_FILE);
    if (user == null || user.isBlank()) {
      throw new CliException("The external metadata database of " + layout.root() + " has no read-only login for "
          + "canopy sql and canopy admin: create the reader role of docs/design/010 and run `canopy up --dir "
          + layout.root() + " -D " + PostgresSettings.READER_USER + "=ROLE -D " + PostgresSettings.READER_PASSWORD_FILE
          + "=FILE` (FILE: its password, mode 0600)");
    }
    settings.put(PostgresSettings.USER, user);
    settings.remove(PostgresSettings.PASSWORD);
    settings.remove(PostgresSettings.PASSWORD_FILE);
    if (passwordFile != null) {
      settings.put(PostgresSettings.PASSWORD_FILE, passwordFile);
    }
    settings.put(PostgresSettings.MIGRATE, "false");
    return settings;
  }

  /** Refuses login settings for the embedded database: its logins are generated, and -D would be ignored. */
  static void checkLoginSettings(String engine, Map<String, String> overrides) {
    if (!engine.equals(ClusterProperties.POSTGRES) || ClusterProperties.isExternal(engine, overrides)) {
      return;
    }
    for (String key : LOGIN_KEYS) {
      if (overrides.containsKey(key)) {
        throw new CliException(2, "-D " + key + " is for an external database (with -D " + PostgresSettings.JDBC_URL
            + "); the embedded database's logins are generated in DIR/secrets");
      }
    }
  }
}
