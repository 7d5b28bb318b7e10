package io.canopy.metadata.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server's logins (docs/design/010): passwords only, the owner and reader roles with just their
 * privileges, and the upgrade of a data directory made by the release that trusted every local login.
 */
@Timeout(180)
class EmbeddedPostgresServerTest {
  @TempDir
  Path directory;

  @Test
  void aNewServerLetsNobodyInWithoutAPasswordAndItsRolesDoOnlyTheirJob() throws Exception {
    Path secrets = directory.resolve("secrets");
    String ownerPassword;
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(directory.resolve("db"), secrets, 0)) {
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)));
      for (DatabaseLogin login : new DatabaseLogin[] {server.superuser(), server.owner(), server.reader()}) {
        assertEquals("rw-------",
            PosixFilePermissions.toString(Files.getPosixFilePermissions(login.passwordFile())));
        assertRefusedWithoutPassword(server.jdbcUrl(), login.user());
      }
      assertFalse(Files.readString(directory.resolve("db").resolve("pg_hba.conf")).contains("trust"));
      try (Connection owner = server.owner().connect(server.jdbcUrl())) {
        assertEquals("f f f", query(owner, "SELECT rolsuper || ' ' || rolcreaterole || ' ' || rolcreatedb "
            + "FROM pg_roles WHERE rolname = current_user").replace("false", "f"));
        execute(owner, "CREATE TABLE later_migration (x int)"); // as a migration of a later release would
        execute(owner, "INSERT INTO later_migration VALUES (7)");
      }
      try (Connection reader = server.reader().connect(server.jdbcUrl())) {
        assertEquals("7", query(reader, "SELECT x FROM later_migration"));
        execute(reader, "SET default_transaction_read_only = off"); // the role itself must refuse, not the session
        assertInsufficientPrivilege(reader, "INSERT INTO later_migration VALUES (8)");
        assertInsufficientPrivilege(reader, "SELECT pg_read_file('PG_VERSION')");
        assertInsufficientPrivilege(reader, "COPY (SELECT 1) TO PROGRAM 'true'");
      }
      ownerPassword = server.owner().password();
    }
    assertFalse(Files.exists(directory.resolve("db").resolve("postmaster.pid")),
        "close returns once the server has stopped writing in its data directory");
    try (EmbeddedPostgresServer again = EmbeddedPostgresServer.start(directory.resolve("db"), secrets, 0);
        Connection owner = again.owner().connect(again.jdbcUrl())) {
      assertEquals(ownerPassword, again.owner().password(), "a restart keeps the passwords");
      assertEquals("7", query(owner, "SELECT x FROM later_migration"));
    }
    assertFalse(Files.exists(directory.resolve("db").resolve("postmaster.pid")));
  }

  @Test
  void aDataDirectoryOfThePreviousReleaseIsUpgraded() throws Exception {
    Path data = directory.resolve("db");
    try (EmbeddedPostgres previous = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
        .setServerConfig("listen_addresses", "127.0.0.1").start();
        Connection superuser = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + previous.getPort()
            + "/postgres", "postgres", "")) {
      execute(superuser, "CREATE TABLE inodes (name text)");
      execute(superuser, "INSERT INTO inodes VALUES ('kept')");
    }
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(data, directory.resolve("secrets"), 0)) {
      assertRefusedWithoutPassword(server.jdbcUrl(), EmbeddedPostgresServer.USER);
      try (Connection reader = server.reader().connect(server.jdbcUrl())) {
        assertEquals("kept", query(reader, "SELECT name FROM inodes"));
        assertEquals(DatabaseRoles.OWNER, query(reader, "SELECT tableowner FROM pg_tables WHERE tablename = 'inodes'"));
      }
    }
  }

  /** The server asks for a password (the driver gives up on an empty one itself) and refuses a wrong one. */
  private static void assertRefusedWithoutPassword(String url, String user) {
    assertThrows(SQLException.class, () -> DriverManager.getConnection(url, user, ""), user + ", no password");
    SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, user, "guess"),
        user + " logged in with a wrong password");
    assertEquals("28P01", refused.getSQLState(), refused.getMessage()); // invalid_password
  }

  private static void assertInsufficientPrivilege(Connection connection, String sql) {
    SQLException refused = assertThrows(SQLException.class, () -> execute(connection, sql), sql);
    assertEquals("42501", refused.getSQLState(), sql + ": " + refused.getMessage());
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static String query(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
      assertTrue(rows.next(), sql);
      return rows.getString(1);
    }
  }
}
