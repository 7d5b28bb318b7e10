package io.canopy.metadata.postgres;

import io.canopy.metadata.MetadataConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code canopy.metadata.*} keys this engine reads, with their defaults, and their typed getters. The keys every
 * engine shares (engine, pool size) are {@link MetadataConfig}'s.
 */
public final class PostgresSettings {
  /**
   * JDBC URL of the PostgreSQL database; set with {@code canopy up -D}, it selects an external database instead of
   * the embedded one.
   */
  public static final String JDBC_URL = "canopy.metadata.jdbc.url";
  /** The database user; for namenodes the owner role of docs/design/010, never a superuser. */
  public static final String USER = "canopy.metadata.jdbc.user";
  public static final String USER_DEFAULT = DatabaseRoles.OWNER;
  /** The password itself; prefer {@link #PASSWORD_FILE}, which keeps it out of configuration files. */
  public static final String PASSWORD = "canopy.metadata.jdbc.password";
  public static final String PASSWORD_DEFAULT = "";
  /** A file (0600) whose first line is the password; wins over {@link #PASSWORD}. */
  public static final String PASSWORD_FILE = "canopy.metadata.jdbc.password-file";
  /** Whether opening the store brings the schema up to date (Flyway); off for read-only logins. */
  public static final String MIGRATE = "canopy.metadata.migrate";
  public static final boolean MIGRATE_DEFAULT = true;
  /**
   * The read-only role canopy sql and canopy admin log in as on an external database (read by the command line, not
   * by namenodes); the embedded database's is {@value DatabaseRoles#READER}.
   */
  public static final String READER_USER = "canopy.metadata.reader.user";
  /** The file (0600) holding the password of {@link #READER_USER}. */
  public static final String READER_PASSWORD_FILE = "canopy.metadata.reader.password-file";
  /** How long a statement waits for a row lock before failing transiently (and being retried). */
  public static final String LOCK_TIMEOUT_MS = "canopy.metadata.lock-timeout-ms";
  public static final long LOCK_TIMEOUT_MS_DEFAULT = 10_000L;
  /**
   * How long one statement may run before PostgreSQL cancels it (statement_timeout); at least the lock timeout.
   */
  public static final String STATEMENT_TIMEOUT_MS = "canopy.metadata.statement-timeout-ms";
  public static final long STATEMENT_TIMEOUT_MS_DEFAULT = 30_000L;
  /**
   * How long the namenode waits for any answer of the database on a connection (the driver's socket timeout, rounded
   * up to whole seconds) before it gives the connection up as hung; longer than the statement timeout.
   */
  public static final String SOCKET_TIMEOUT_MS = "canopy.metadata.socket-timeout-ms";
  public static final long SOCKET_TIMEOUT_MS_DEFAULT = 40_000L;
  /** How long an operation waits for a connection (from the pool, or a new one) before failing as unavailable. */
  public static final String CONNECTION_TIMEOUT_MS = "canopy.metadata.connection-timeout-ms";
  public static final long CONNECTION_TIMEOUT_MS_DEFAULT = 10_000L;
  /**
   * How long a session may sit idle inside a transaction before PostgreSQL ends it and releases its locks
   * (idle_in_transaction_session_timeout): frees the rows a stalled namenode holds.
   */
  public static final String IDLE_IN_TRANSACTION_TIMEOUT_MS = "canopy.metadata.idle-in-transaction-timeout-ms";
  public static final long IDLE_IN_TRANSACTION_TIMEOUT_MS_DEFAULT = 60_000L;
  /** PostgreSQL synchronous_commit: "on" makes every commit durable before it is acknowledged (the default). */
  public static final String SYNCHRONOUS_COMMIT = "canopy.metadata.synchronous-commit";
  public static final String SYNCHRONOUS_COMMIT_DEFAULT = "on";

  /**
   * After how many executions of the same SQL on a connection the driver makes it a server-side prepared statement
   * (pgjdbc's prepareThreshold, 0: never): parsed once per connection instead of on every execution. From the first
   * (1), since Canopy's statements are few and repeat (docs/design/012-statements-per-operation.md).
   */
  public static final String PREPARE_THRESHOLD = "canopy.metadata.jdbc.prepare-threshold";
  public static final int PREPARE_THRESHOLD_DEFAULT = 1;

  /**
   * PostgreSQL's plan_cache_mode for the namenode's sessions: whether a prepared statement is planned once for all
   * parameter values (generic) or again for each execution (custom). Generic by default: every statement Canopy
   * sends is a key lookup or a short index range, whose plan does not depend on the values, and a path's lateral
   * join over key arrays would otherwise be planned again on every execution (PostgreSQL's auto mode keeps custom
   * plans when the generic one guesses the arrays' length), which doubled the database's CPU per getFileInfo.
   */
  public static final String PLAN_CACHE_MODE = "canopy.metadata.plan-cache-mode";
  public static final String PLAN_CACHE_MODE_DEFAULT = "force_generic_plan";

  /**
   * PostgreSQL's enable_seqscan for the namenode's sessions. Off by default: every statement on a client's path is a
   * key lookup or an index range, and a generic plan made while a table looked empty (a new cluster, or one whose
   * files were just deleted, before autovacuum's next analyze) is a sequential scan that the session keeps until
   * the next analyze: each key lookup then read every row of the table (measured on small-file writes and reads,
   * design 016). Off, the planner takes the index whatever the statistics say; a statement with no index to use
   * still scans.
   */
  public static final String SEQSCAN = "canopy.metadata.seqscan";
  public static final boolean SEQSCAN_DEFAULT = false;

  private final Map<String, String> values;

  PostgresSettings(Map<String, String> values) {
    this.values = values;
  }

  String jdbcUrl() {
    String url = values.get(JDBC_URL);
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(JDBC_URL + " is not set: it must name the PostgreSQL metadata database");
    }
    return url;
  }

  String user() {
    return values.getOrDefault(USER, USER_DEFAULT);
  }

  String password() {
    String file = values.get(PASSWORD_FILE);
    if (file == null || file.isBlank()) {
      return values.getOrDefault(PASSWORD, PASSWORD_DEFAULT);
    }
    try {
      return new DatabaseLogin(user(), Path.of(file)).password();
    } catch (IOException e) {
      throw new IllegalArgumentException(PASSWORD_FILE + " names " + file + ", which cannot be read: " + e
          + "; it must hold the password of database user " + user() + " on its first line", e);
    }
  }

  boolean migrate() {
    return Boolean.parseBoolean(values.getOrDefault(MIGRATE, String.valueOf(MIGRATE_DEFAULT)).trim());
  }

  /** The settings that log a store in at {@code jdbcUrl} as {@code login} (its password read from its file). */
  public static Map<String, String> login(String jdbcUrl, DatabaseLogin login) {
    return Map.of(JDBC_URL, jdbcUrl, USER, login.user(), PASSWORD_FILE, login.passwordFile().toString());
  }

  int poolSize() {
    int size = MetadataConfig.poolSize(values);
    if (size < 1 || size > 1000) {
      throw new IllegalArgumentException(MetadataConfig.POOL_SIZE + " must be within [1, 1000], got " + size);
    }
    return size;
  }

  long lockTimeoutMs() {
    return milliseconds(LOCK_TIMEOUT_MS, LOCK_TIMEOUT_MS_DEFAULT, 1);
  }

  /** statement_timeout: never below the lock timeout, so a lock wait fails as a lock timeout (retried). */
  long statementTimeoutMs() {
    long statementMs = milliseconds(STATEMENT_TIMEOUT_MS, STATEMENT_TIMEOUT_MS_DEFAULT, 1);
    if (statementMs < lockTimeoutMs()) {
      throw new IllegalArgumentException(STATEMENT_TIMEOUT_MS + " (" + statementMs + " ms) must be at least "
          + LOCK_TIMEOUT_MS + " (" + lockTimeoutMs() + " ms): a statement waiting for a row lock must fail as a "
          + "lock timeout, which the namenode retries");
    }
    return statementMs;
  }

  /**
   * The driver's socket timeout, in its unit (whole seconds, rounded up); longer than the statement timeout, so a
   * slow statement ends with PostgreSQL's own cancellation and a connection is given up only when the server says
   * nothing at all.
   */
  int socketTimeoutSeconds() {
    long socketMs = milliseconds(SOCKET_TIMEOUT_MS, SOCKET_TIMEOUT_MS_DEFAULT, 1000);
    int seconds = (int) Math.min(Integer.MAX_VALUE, (socketMs + 999) / 1000);
    if (seconds * 1000L <= statementTimeoutMs()) {
      throw new IllegalArgumentException(SOCKET_TIMEOUT_MS + " (" + socketMs + " ms, used in whole seconds) must be "
          + "longer than " + STATEMENT_TIMEOUT_MS + " (" + statementTimeoutMs() + " ms)");
    }
    return seconds;
  }

  /** HikariCP's connection timeout (at least its 250 ms minimum). */
  long connectionTimeoutMs() {
    return milliseconds(CONNECTION_TIMEOUT_MS, CONNECTION_TIMEOUT_MS_DEFAULT, 250);
  }

  /**
   * How long checking an idle pooled connection may take: part of getting a connection, so at most half the
   * connection timeout (and HikariCP's default, 5 s), which leaves time to try another one.
   */
  long validationTimeoutMs() {
    return Math.max(250, Math.min(5000, connectionTimeoutMs() / 2));
  }

  /**
   * The driver's properties for the namenode's connections. Session settings travel as startup options: a SET run
   * as init SQL sits in the connection's first transaction and is undone if that transaction rolls back.
   */
  Map<String, String> driverProperties(boolean readOnlySessions) {
    int connectSeconds = (int) Math.max(1, (connectionTimeoutMs() + 999) / 1000);
    return Map.of(
        "options", "-c lock_timeout=" + lockTimeoutMs() + " -c statement_timeout=" + statementTimeoutMs()
            + " -c idle_in_transaction_session_timeout=" + idleInTransactionTimeoutMs()
            + " -c synchronous_commit=" + synchronousCommit() + " -c plan_cache_mode=" + planCacheMode()
            + " -c enable_seqscan=" + (seqScan() ? "on" : "off")
            + (readOnlySessions ? " -c default_transaction_read_only=on" : ""),
        "socketTimeout", String.valueOf(socketTimeoutSeconds()),
        "prepareThreshold", String.valueOf(prepareThreshold()),
        "connectTimeout", String.valueOf(connectSeconds),
        "loginTimeout", String.valueOf(connectSeconds));
  }

  boolean seqScan() {
    String value = values.getOrDefault(SEQSCAN, String.valueOf(SEQSCAN_DEFAULT)).trim();
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(SEQSCAN + " must be true or false; got '" + value + "'");
    }
    return Boolean.parseBoolean(value);
  }

  String planCacheMode() {
    String mode = values.getOrDefault(PLAN_CACHE_MODE, PLAN_CACHE_MODE_DEFAULT).trim();
    if (!mode.matches("auto|force_generic_plan|force_custom_plan")) {
      throw new IllegalArgumentException(PLAN_CACHE_MODE + " must be one of auto, force_generic_plan, "
          + "force_custom_plan; got '" + mode + "'");
    }
    return mode;
  }

  int prepareThreshold() {
    String value = values.getOrDefault(PREPARE_THRESHOLD, String.valueOf(PREPARE_THRESHOLD_DEFAULT)).trim();
    try {
      int threshold = Integer.parseInt(value);
      if (threshold < 0) {
        throw new IllegalArgumentException(PREPARE_THRESHOLD + " must be at least 0 (0: never prepare), got "
            + threshold);
      }
      return threshold;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PREPARE_THRESHOLD + " must be a whole number, got '" + value + "'", e);
    }
  }

  long idleInTransactionTimeoutMs() {
    return milliseconds(IDLE_IN_TRANSACTION_TIMEOUT_MS, IDLE_IN_TRANSACTION_TIMEOUT_MS_DEFAULT, 1);
  }

  private long milliseconds(String key, long defaultMs, long minimumMs) {
    String value = values.getOrDefault(key, String.valueOf(defaultMs)).trim();
    long ms;
    try {
      ms = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number of milliseconds, got '" + value + "'", e);
    }
    if (ms < minimumMs) {
      throw new IllegalArgumentException(key + " must be at least " + minimumMs + " ms, got " + ms);
    }
    return ms;
  }

  String synchronousCommit() {
    String mode = values.getOrDefault(SYNCHRONOUS_COMMIT, SYNCHRONOUS_COMMIT_DEFAULT);
    if (!mode.matches("on|off|local|remote_write|remote_apply")) {
      throw new IllegalArgumentException(SYNCHRONOUS_COMMIT + " must be one of on, off, local, remote_write, "
          + "remote_apply; got '" + mode + "'");
    }
    return mode;
  }
}
