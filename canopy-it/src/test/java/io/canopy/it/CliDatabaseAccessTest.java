package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.cli.ClusterLayout;
import io.canopy.cli.ClusterProperties;
import io.canopy.cli.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may use the metadata database of a cluster `canopy up` runs (issue 12 item 5): nobody without a password; the
 * namenodes as an owner role that is no superuser; `canopy sql` as a read-only role that can neither write nor reach
 * the server's files and programs; passwords only in 0600 files, never in the client configuration.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliDatabaseAccessTest {
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  @TempDir
  static Path work;

  /** Stops both clusters of this class, the one made by this release and the one upgraded from the previous. */
  @AfterAll
  static void down() {
    canopy().downIfCreated();
    new CliRunner(work.resolve("old-cluster")).downIfCreated();
  }

  private static CliRunner canopy() {
    return new CliRunner(work.resolve("cluster"));
  }

  private static String jdbcUrl(ClusterLayout layout) {
    int port = ClusterProperties.load(layout.propertiesFile()).orElseThrow().port(Role.DATABASE);
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  @Test
  void onlyPasswordLoginsAndTheRolesDoOnlyTheirJob() throws Exception {
    canopy().up("--datanodes", "1", "-D", "dfs.heartbeat.interval=1");
    ClusterLayout layout = new ClusterLayout(canopy().clusterDir());
    canopy().succeed("dfs", "-mkdir", "/visible");
    String url = jdbcUrl(layout);

    // Nobody gets in without the password: not the superuser, not the roles.
    for (String user : new String[] {"postgres", "canopy_owner", "canopy_reader"}) {
      assertRefusedWithoutPassword(url, user);
    }
    // The passwords live in files only their owner reads; the client configuration holds no database credential.
    for (String role : new String[] {"postgres", "canopy_owner", "canopy_reader"}) {
      Path file = layout.root().resolve("secrets").resolve(role + ".password");
      assertEquals(OWNER_ONLY, Files.getPosixFilePermissions(file), file.toString());
    }
    try (Stream<Path> clientFiles = Files.list(layout.etc())) {
      for (Path file : clientFiles.filter(Files::isRegularFile).toList()) {
        String xml = Files.readString(file);
        assertFalse(xml.contains("canopy.metadata.jdbc.user") || xml.contains("password"), file + ":\n" + xml);
      }
    }

    // canopy sql: the README's first query works, on the read-only role.
    CliRunner.Run inodes = canopy().succeed("sql", "SELECT id, parent_id, name, size FROM inodes");
    assertTrue(inodes.out().contains("visible"), inodes.out());
    assertEquals("canopy_reader", firstCell(canopy().succeed("sql", "SELECT current_user").out()));
    // a small file written through canopy dfs (Canopy's client) is in the database; the view names its tier
    Path local = work.resolve("small.txt");
    Files.writeString(local, "stored with its metadata\n");
    canopy().succeed("dfs", "-put", local.toString(), "/visible/small.txt");
    CliRunner.Run tiers = canopy().succeed("sql", "SELECT s.tier, s.bytes FROM small_files s JOIN inodes i "
        + "ON i.id = s.inode_id WHERE i.name = 'small.txt'");
    assertTrue(tiers.out().contains("inline") && tiers.out().contains("25"), tiers.out());
    // The namenode connects as the owner role, which is no superuser (sessions connected to a database, so not
    // PostgreSQL's own background workers).
    CliRunner.Run sessions = canopy().succeed("sql", "SELECT DISTINCT a.usename, r.rolsuper FROM pg_stat_activity a "
        + "JOIN pg_roles r ON r.rolname = a.usename WHERE a.datname IS NOT NULL AND a.usename <> current_user");
    assertTrue(sessions.out().contains("canopy_owner"), sessions.out());
    assertFalse(sessions.out().contains(" t\n") || sessions.out().contains("| t"), sessions.out());

    // Neither canopy sql nor a direct login with either role's password runs programs, reads server files or
    // (the reader) writes.
    Path marker = work.resolve("copy-to-program-ran");
    String copyToProgram = "COPY (SELECT 1) TO PROGRAM 'touch " + marker + "'";
    assertNotEquals(0, canopy().run("sql", copyToProgram).exitCode());
    assertNotEquals(0, canopy().run("sql", "SELECT pg_read_file('PG_VERSION')").exitCode());
    for (String role : new String[] {"canopy_reader", "canopy_owner"}) {
      try (Connection connection = login(layout, url, role)) {
        assertRefused(connection, copyToProgram);
        assertRefused(connection, "SELECT pg_read_file('PG_VERSION')");
        assertRefused(connection, "SELECT pg_ls_dir('.')");
        assertRefused(connection, "CREATE ROLE intruder SUPERUSER LOGIN");
      }
    }
    assertFalse(Files.exists(marker), "COPY ... TO PROGRAM ran a shell command");
    try (Connection reader = login(layout, url, "canopy_reader")) {
      assertRefused(reader, "UPDATE inodes SET owner_name = 'mallory'");
      assertRefused(reader, "DELETE FROM inodes");
      assertRefused(reader, "TRUNCATE replicas");
      assertRefused(reader, "CREATE TABLE stash (x int)");
      assertRefused(reader, "SELECT * FROM block_keys"); // secrets: the block keys sign block access tokens
      // and delegation tokens (their passwords), their master keys and counters (V19)
      for (String table : new String[] {"delegation_tokens", "delegation_keys", "delegation_counters"}) {
        assertRefused(reader, "SELECT * FROM " + table);
      }
    }
    assertNotEquals(0, canopy().run("sql", "SELECT * FROM block_keys").exitCode());
    assertNotEquals(0, canopy().run("sql", "SELECT * FROM delegation_tokens").exitCode());
    canopy().succeed("dfs", "-ls", "/visible");
    canopy().succeed("down");
  }

  /**
   * A cluster directory as the previous release left it (PostgreSQL with trust logins, the metadata tables owned by the
   * superuser, no secrets directory) is upgraded by the next `canopy up`: same namespace, password logins only.
   */
  @Test
  void aClusterDirectoryOfThePreviousReleaseIsUpgradedOnItsNextUp() throws Exception {
    CliRunner old = new CliRunner(work.resolve("old-cluster"));
    ClusterLayout layout = new ClusterLayout(old.clusterDir());
    int databasePort = freePort();
    int namenodePort = freePort();
    PreviousRelease.createCluster(layout.databaseDir(), databasePort, "/from-before/kept");
    new ClusterProperties(1, 0, java.util.Map.of(Role.DATABASE.name(), databasePort, Role.namenode(1).name(),
        namenodePort), java.util.Map.of()).store(layout.propertiesFile());
    try {
      old.up();
      assertTrue(old.succeed("dfs", "-ls", "-R", "/").out().contains("/from-before/kept"));
      assertTrue(old.succeed("sql", "SELECT name FROM inodes").out().contains("kept"));
      assertEquals("canopy_owner", firstCell(old.succeed("sql", "SELECT string_agg(DISTINCT tableowner, ',') "
          + "FROM pg_tables WHERE schemaname = 'public'").out()));
      String url = "jdbc:postgresql://127.0.0.1:" + databasePort + "/postgres";
      assertRefusedWithoutPassword(url, "postgres");
      old.succeed("dfs", "-mkdir", "/after-upgrade");
      old.succeed("down");
      old.up(); // the upgraded directory starts as any other from now on
      assertTrue(old.succeed("dfs", "-ls", "/").out().contains("/after-upgrade"));
    } finally {
      old.downIfCreated();
    }
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static Connection login(ClusterLayout layout, String url, String role) throws Exception {
    String password = Files.readAllLines(layout.root().resolve("secrets").resolve(role + ".password")).get(0);
    Connection connection = DriverManager.getConnection(url, role, password);
    connection.setAutoCommit(true);
    try (Statement session = connection.createStatement()) {
      session.execute("SET default_transaction_read_only = off"); // the role itself must refuse, not the session
    }
    return connection;
  }

  /** The server asks for a password (the driver gives up on an empty one itself) and refuses a wrong one. */
  private static void assertRefusedWithoutPassword(String url, String user) {
    assertThrows(SQLException.class, () -> DriverManager.getConnection(url, user, ""), user + ", no password");
    SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, user, "guess"),
        user + " logged in with a wrong password");
    assertEquals("28P01", refused.getSQLState(), user + ": " + refused.getMessage()); // invalid_password
  }

  private static void assertRefused(Connection connection, String sql) {
    SQLException refused = assertThrows(SQLException.class, () -> {
      try (Statement statement = connection.createStatement()) {
        statement.execute(sql);
      }
    }, sql);
    assertEquals("42501", refused.getSQLState(), sql + ": " + refused.getMessage()); // insufficient_privilege
  }

  /** The first data cell of a table `canopy sql` printed. */
  private static String firstCell(String table) {
    return table.lines().skip(2).findFirst().orElseThrow().trim();
  }
}
