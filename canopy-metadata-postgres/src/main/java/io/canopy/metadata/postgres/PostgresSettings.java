package io.canopy.metadata.postgres;

import java.util.Map;

/** The {@code canopy.metadata.*} keys this engine reads, with their defaults. */
public final class PostgresSettings {
  /** JDBC URL of the PostgreSQL database. */
  public static final String JDBC_URL = "canopy.metadata.jdbc.url";
  public static final String USER = "canopy.metadata.jdbc.user";
  public static final String USER_DEFAULT = "postgres";
  public static final String PASSWORD = "canopy.metadata.jdbc.password";
  public static final String PASSWORD_DEFAULT = "";
  /** Connections in the namenode's pool; each concurrent operation holds one. */
  public static final String POOL_SIZE = "canopy.metadata.pool.size";
  public static final int POOL_SIZE_DEFAULT = 32;
  /** How long a statement waits for a row lock before failing transiently (and being retried). */
  public static final String LOCK_TIMEOUT_MS = "canopy.metadata.lock-timeout-ms";
  public static final long LOCK_TIMEOUT_MS_DEFAULT = 10_000L;
  /** PostgreSQL synchronous_commit: "on" makes every commit durable before it is acknowledged (the default). */
  public static final String SYNCHRONOUS_COMMIT = "canopy.metadata.synchronous-commit";
  public static final String SYNCHRONOUS_COMMIT_DEFAULT = "on";

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
    return values.getOrDefault(PASSWORD, PASSWORD_DEFAULT);
  }

  int poolSize() {
    int size = Integer.parseInt(values.getOrDefault(POOL_SIZE, String.valueOf(POOL_SIZE_DEFAULT)));
    if (size < 1 || size > 1000) {
      throw new IllegalArgumentException(POOL_SIZE + " must be within [1, 1000], got " + size);
    }
    return size;
  }

  long lockTimeoutMs() {
    return Long.parseLong(values.getOrDefault(LOCK_TIMEOUT_MS, String.valueOf(LOCK_TIMEOUT_MS_DEFAULT)));
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
