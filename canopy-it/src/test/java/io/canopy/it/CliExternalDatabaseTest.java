package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * canopy up with -D canopy.metadata.jdbc.url: the metadata lives in a PostgreSQL canopy did not start (here a
 * separate server in its own directory, standing for a production database), set up by its administrator with the
 * owner and reader roles of docs/design/010 (other names than the embedded ones); no embedded database runs, the
 * namenodes log in as the owner, canopy sql as the reader, no client file names a login, and canopy down leaves that
 * server alone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliExternalDatabaseTest {
  /** What docs/design/010 tells the administrator of an external database to run, with the roles' names. */
  private static final List<String> ADMINISTRATOR_SETUP = List.of(
      "CREATE ROLE meta_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '%s'",
      "CREATE ROLE meta_reader LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '%s'",
      "ALTER ROLE meta_reader SET default_transaction_read_only = on",
      "CREATE DATABASE canopy_meta OWNER meta_owner",
      "REVOKE ALL ON DATABASE canopy_meta FROM PUBLIC",
      "GRANT CONNECT ON DATABASE canopy_meta TO meta_owner, meta_reader");
  /** The same, connected to the new database. */
  private static final List<String> ADMINISTRATOR_SETUP_IN_DATABASE = List.of(
      "REVOKE ALL ON SCHEMA public FROM PUBLIC",
      "GRANT USAGE ON SCHEMA public TO meta_reader",
      "ALTER DEFAULT PRIVILEGES FOR ROLE meta_owner IN SCHEMA public GRANT SELECT ON TABLES TO meta_reader");

  @TempDir
  static Path work;
  static EmbeddedPostgresServer external;
  static String jdbcUrl;
  static Path ownerPassword;
  static Path readerPassword;

  @BeforeAll
  static void startExternalDatabase() throws Exception {
    external = EmbeddedPostgresServer.start(work.resolve("external-db"), work.resolve("external-secrets"), 0);
    ownerPassword = passwordFile(work, "owner.password", "owner-secret");
    readerPassword = passwordFile(work, "reader.password", "reader-secret");
    jdbcUrl = setUpAsItsAdministrator(external);
  }

  /**
   * Runs docs/design/010's statements on {@code server} (owner password owner-secret, reader reader-secret); the
   * plain JDBC URL of the new database.
   */
  static String setUpAsItsAdministrator(EmbeddedPostgresServer server) throws Exception {
    try (Connection connection = server.superuser().connect(server.jdbcUrl());
        Statement statement = connection.createStatement()) {
      statement.execute(String.format(ADMINISTRATOR_SETUP.get(0), "owner-secret"));
      statement.execute(String.format(ADMINISTRATOR_SETUP.get(1), "reader-secret"));
      for (String sql : ADMINISTRATOR_SETUP.subList(2, ADMINISTRATOR_SETUP.size())) {
        statement.execute(sql);
      }
    }
    String url = "jdbc:postgresql://127.0.0.1:" + server.port() + "/canopy_meta";
    try (Connection connection = server.superuser().connect(url);
        Statement statement = connection.createStatement()) {
      for (String sql : ADMINISTRATOR_SETUP_IN_DATABASE) {
        statement.execute(sql);
      }
    }
    return url;
  }

  /** A 0600 file in {@code directory} holding {@code password}. */
  static Path passwordFile(Path directory, String name, String password) throws Exception {
    Path file = directory.resolve(name);
    Files.writeString(file, password + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** Stops the cluster in {@code directory} if one was made, then {@code server}. */
  static void stopClusterAndDatabase(Path directory, EmbeddedPostgresServer server) throws Exception {
    CliRunner canopy = new CliRunner(directory);
    if (Files.exists(canopy.clusterDir())) {
      canopy.run("down");
    }
    if (server != null) {
      server.close();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    stopClusterAndDatabase(work.resolve("cluster"), external);
  }

  @Test
  void clusterOnAnExternalDatabase() throws Exception {
    CliRunner canopy = new CliRunner(work.resolve("cluster"));
    canopy.up("--datanodes", "1", "-D", "canopy.metadata.jdbc.url=" + jdbcUrl, "-D", "dfs.heartbeat.interval=1",
        "-D", "canopy.metadata.jdbc.user=meta_owner", "-D", "canopy.metadata.jdbc.password-file=" + ownerPassword,
        "-D", "canopy.metadata.reader.user=meta_reader", "-D", "canopy.metadata.reader.password-file="
            + readerPassword);
    CliRunner.Run status = canopy.succeed("status");
    assertTrue(status.out().contains("external database"), status.out());
    assertFalse(status.out().lines().anyMatch(line -> line.startsWith("db ")), status.out());
    assertFalse(Files.exists(canopy.clusterDir().resolve("db")), "no embedded database directory");

    byte[] content = TestFiles.randomBytes(100_000, 41);
    Path local = work.resolve("file.bin");
    Files.write(local, content);
    canopy.succeed("dfs", "-put", local.toString(), "/external.bin");
    assertTrue(canopy.succeed("sql", "SELECT name FROM inodes").out().contains("external.bin"));
    assertTrue(canopy.succeed("sql", "SELECT current_user").out().contains("meta_reader"));
    assertTrue(canopy.succeed("sql", "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'").out()
        .contains("meta_owner"), "the namenode and canopy up migrate as the owner role");
    assertNotEquals(0, canopy.run("sql", "SELECT pg_read_file('PG_VERSION')").exitCode());
    try (Stream<Path> clientFiles = Files.list(canopy.clusterDir().resolve("etc"))) {
      for (Path file : clientFiles.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.readString(file).contains("canopy.metadata"), file + " names the database");
      }
    }
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "meta_owner", "owner-secret");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT size FROM inodes WHERE name = 'external.bin'")) {
      assertTrue(rows.next(), "the inode is in the external database");
      assertEquals(content.length, rows.getLong(1));
    }

    canopy.succeed("down");
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "meta_owner", "owner-secret")) {
      assertTrue(connection.isValid(5), "canopy down must not stop a database it did not start");
    }
    canopy.up();
    Path back = work.resolve("back.bin");
    canopy.succeed("dfs", "-get", "/external.bin", back.toString());
    assertArrayEquals(content, Files.readAllBytes(back));
    canopy.succeed("down");
  }
}
