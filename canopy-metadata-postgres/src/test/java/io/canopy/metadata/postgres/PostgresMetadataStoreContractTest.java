package io.canopy.metadata.postgres;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreContractTest;
import io.canopy.metadata.MetadataStoreProvider;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the metadata-store contract against a real PostgreSQL: one embedded server per class, one new database
 * per store, opened through {@link MetadataStoreProvider} so the ServiceLoader registration is exercised too.
 */
class PostgresMetadataStoreContractTest extends MetadataStoreContractTest {
  @TempDir
  static Path serverDirectory;

  private static EmbeddedPostgresServer server;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  @BeforeAll
  static void startServer() throws Exception {
    server = EmbeddedPostgresServer.start(serverDirectory.resolve("pgdata"), 0);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected MetadataStore newStore() throws Exception {
    String database = "contract_" + DATABASES.incrementAndGet();
    try (Connection admin = DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.USER, "");
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE " + database);
    }
    return MetadataStoreProvider.open("postgres", Map.of(
        PostgresSettings.JDBC_URL, "jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database,
        PostgresSettings.USER, EmbeddedPostgresServer.USER,
        PostgresSettings.POOL_SIZE, "8",
        PostgresSettings.LOCK_TIMEOUT_MS, "5000"));
  }

  @org.junit.jupiter.api.Test
  void sessionSettingsSurviveRolledBackTransactions() throws Exception {
    String database = "settings_" + DATABASES.incrementAndGet();
    try (Connection admin = DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.USER, "");
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE " + database);
    }
    try (MetadataStore store = MetadataStoreProvider.open("postgres", Map.of(
        PostgresSettings.JDBC_URL, "jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database,
        PostgresSettings.USER, EmbeddedPostgresServer.USER,
        PostgresSettings.POOL_SIZE, "1",
        PostgresSettings.LOCK_TIMEOUT_MS, "1234",
        PostgresSettings.STATEMENT_TIMEOUT_MS, "4321",
        PostgresSettings.IDLE_IN_TRANSACTION_TIMEOUT_MS, "5678",
        PostgresSettings.SYNCHRONOUS_COMMIT, "local"))) {
      for (int i = 0; i < 3; i++) {
        store.begin(MetadataStore.NO_PARTITION_HINT).rollback(); // the pool's only connection, rolled back
      }
      org.junit.jupiter.api.Assertions.assertEquals("1234ms",
          store.adminQuery("SHOW lock_timeout", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("local",
          store.adminQuery("SHOW synchronous_commit", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("4321ms",
          store.adminQuery("SHOW statement_timeout", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("5678ms",
          store.adminQuery("SHOW idle_in_transaction_session_timeout", 1).rows().get(0).get(0));
    }
  }
}
