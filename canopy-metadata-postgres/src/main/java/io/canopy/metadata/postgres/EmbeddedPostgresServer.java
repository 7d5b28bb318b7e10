package io.canopy.metadata.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.postgresql.PGConnection;

/**
 * A real PostgreSQL server run from the zonky binaries jar, with its data directory where the caller says (under
 * the cluster directory by default). Durable: fsync and synchronous commit stay on.
 *
 * <p>Logins need a password (docs/design/010): the superuser's, the owner role's and the reader role's are generated
 * into a secrets directory (0700, files 0600) on first start; {@code pg_hba.conf} allows SCRAM-SHA-256 logins over
 * loopback TCP only; the roles and their grants are set again on every start. A data directory made by an older
 * release (trust logins, no superuser password) is upgraded by its next start.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  /** Database holding Canopy's metadata inside the embedded server. */
  public static final String DATABASE = "postgres";
  /** The bootstrap superuser: only for creating the roles, never for namenodes or queries. */
  public static final String USER = "postgres";
  private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);
  /**
   * How long {@link #close} waits for the server to finish stopping. zonky's stop gives {@code pg_ctl} 5 s and
   * returns either way; a busy machine's shutdown checkpoint may take longer, and until it ends the server still
   * writes in its data directory.
   */
  static final Duration STOP_WAIT = Duration.ofSeconds(60);
  private static final long STOP_POLL_MS = 50;

  private final EmbeddedPostgres postgres;
  private final Path dataDirectory;
  private final Path secretsDirectory;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory, Path secretsDirectory) {
    this.postgres = postgres;
    this.dataDirectory = dataDirectory;
    this.secretsDirectory = secretsDirectory;
  }

  /** The superuser's login, its password in {@code secretsDirectory}. */
  public static DatabaseLogin superuser(Path secretsDirectory) {
    return login(secretsDirectory, USER);
  }

  /** The owner role's login (namenodes, format, migrations). */
  public static DatabaseLogin owner(Path secretsDirectory) {
    return login(secretsDirectory, DatabaseRoles.OWNER);
  }

  /** The reader role's login ({@code canopy sql}, {@code canopy admin}). */
  public static DatabaseLogin reader(Path secretsDirectory) {
    return login(secretsDirectory, DatabaseRoles.READER);
  }

  private static DatabaseLogin login(Path secretsDirectory, String user) {
    return new DatabaseLogin(user, secretsDirectory.resolve(user + ".password"));
  }

  /**
   * Starts (initializing the data directory when empty, upgrading one made by an older release) on 127.0.0.1 at
   * {@code port}; 0 picks a free port. The passwords are in {@code secretsDirectory}, created when missing.
   */
  public static EmbeddedPostgresServer start(Path dataDirectory, Path secretsDirectory, int port)
      throws IOException {
    Files.createDirectories(dataDirectory);
    SecretFiles.ensureDirectory(secretsDirectory);
    for (DatabaseLogin login : new DatabaseLogin[] {superuser(secretsDirectory), owner(secretsDirectory),
        reader(secretsDirectory)}) {
      SecretFiles.ensurePassword(login.passwordFile());
    }
    boolean initialized = Files.exists(dataDirectory.resolve("postgresql.conf"));
    if (initialized && !HostBasedAccess.passwordLoginsOnly(dataDirectory)) {
      giveTheSuperuserItsPassword(dataDirectory, secretsDirectory, port);
    }
    EmbeddedPostgres.Builder builder = builder(dataDirectory, port)
        .setConnectConfig("password", superuser(secretsDirectory).password())
        .setDataDirectoryCustomizer(directory -> {
          try {
            HostBasedAccess.writePasswordLoginsOnly(directory.toPath());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    if (!initialized) {
      // zonky hands its "locale config" to initdb as --KEY=VALUE: the only way to give the superuser its password
      // from the first moment on (zonky's own initdb options trust everyone and set none).
      builder.setLocaleConfig("pwfile", superuser(secretsDirectory).passwordFile().toString());
    }
    EmbeddedPostgresServer server = new EmbeddedPostgresServer(builder.start(), dataDirectory, secretsDirectory);
    try (Connection connection = server.superuser().connect(server.jdbcUrl())) {
      DatabaseRoles.provision(connection, DATABASE, server.owner(), server.reader());
    } catch (IOException | SQLException | RuntimeException e) {
      server.close();
      throw new IOException("Cannot set up the roles of the metadata database in " + dataDirectory + ": "
          + e.getMessage(), e);
    }
    return server;
  }

  private static EmbeddedPostgres.Builder builder(Path dataDirectory, int port) {
    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
        .setDataDirectory(dataDirectory)
        .setCleanDataDirectory(false)
        .setPGStartupWait(STARTUP_WAIT)
        .setServerConfig("listen_addresses", "127.0.0.1")
        .setServerConfig("unix_socket_directories", "")
        .setServerConfig("max_connections", "400")
        .setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on");
    if (port > 0) {
      builder.setPort(port);
    }
    return builder;
  }

  /**
   * The upgrade of a directory made before password logins: one start that lets only the superuser in, from
   * loopback, without a password; it gets the one in the secrets directory, and the server stops again.
   */
  private static void giveTheSuperuserItsPassword(Path dataDirectory, Path secretsDirectory, int port)
      throws IOException {
    HostBasedAccess.writeUpgradeOnly(dataDirectory);
    DatabaseLogin superuser = superuser(secretsDirectory);
    try (EmbeddedPostgres upgrading = builder(dataDirectory, port).start();
        Connection connection = upgrading.getPostgresDatabase().getConnection()) {
      connection.unwrap(PGConnection.class).alterUserPassword(superuser.user(), superuser.password().toCharArray(),
          "scram-sha-256");
    } catch (SQLException e) {
      throw new IOException("Cannot give the superuser of " + dataDirectory + " a password: " + e.getMessage(), e);
    }
    HostBasedAccess.writePasswordLoginsOnly(dataDirectory);
  }

  public int port() {
    return postgres.getPort();
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
  }

  public DatabaseLogin superuser() {
    return superuser(secretsDirectory);
  }

  public DatabaseLogin owner() {
    return owner(secretsDirectory);
  }

  public DatabaseLogin reader() {
    return reader(secretsDirectory);
  }

  /** The {@code canopy.metadata.*} settings of a store logged in as the owner (what namenodes use). */
  public Map<String, String> ownerSettings() {
    return PostgresSettings.login(jdbcUrl(), owner());
  }

  /**
   * Stops the server and returns once it has stopped: the postmaster removes {@code postmaster.pid} last, so its
   * absence means nothing writes in the data directory any more (a caller may delete it). Waits at most
   * {@link #STOP_WAIT}.
   */
  @Override
  public void close() throws IOException {
    postgres.close();
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    while (Files.exists(pidFile)) {
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("The metadata database in " + dataDirectory + " did not stop within "
            + STOP_WAIT.toSeconds() + " s (" + pidFile + " is still there)");
      }
      try {
        Thread.sleep(STOP_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted waiting for the metadata database in " + dataDirectory + " to stop", e);
      }
    }
  }
}
