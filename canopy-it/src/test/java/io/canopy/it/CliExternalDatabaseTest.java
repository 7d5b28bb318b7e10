package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * canopy up with -D canopy.metadata.jdbc.url: the metadata lives in a PostgreSQL canopy did not start (here a
 * separate server in its own directory, standing for a production database), no embedded database runs, and
 * canopy down leaves that server alone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliExternalDatabaseTest {
  @TempDir
  static Path work;
  static EmbeddedPostgresServer external;
  static String jdbcUrl;

  @BeforeAll
  static void startExternalDatabase() throws Exception {
    external = EmbeddedPostgresServer.start(work.resolve("external-db"), 0);
    try (Connection connection = DriverManager.getConnection(external.jdbcUrl(), "postgres", "");
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE canopy_meta");
    }
    jdbcUrl = "jdbc:postgresql://127.0.0.1:" + external.port() + "/canopy_meta";
  }

  @AfterAll
  static void stop() throws Exception {
    CliRunner canopy = new CliRunner(work.resolve("cluster"));
    if (Files.exists(canopy.clusterDir())) {
      canopy.run("down");
    }
    if (external != null) {
      external.close();
    }
  }

  @Test
  void clusterOnAnExternalDatabase() throws Exception {
    CliRunner canopy = new CliRunner(work.resolve("cluster"));
    canopy.up("--datanodes", "1", "-D", "canopy.metadata.jdbc.url=" + jdbcUrl, "-D", "dfs.heartbeat.interval=1");
    CliRunner.Run status = canopy.succeed("status");
    assertTrue(status.out().contains("external database"), status.out());
    assertFalse(status.out().lines().anyMatch(line -> line.startsWith("db ")), status.out());
    assertFalse(Files.exists(canopy.clusterDir().resolve("db")), "no embedded database directory");

    byte[] content = TestFiles.randomBytes(100_000, 41);
    Path local = work.resolve("file.bin");
    Files.write(local, content);
    canopy.succeed("dfs", "-put", local.toString(), "/external.bin");
    assertTrue(canopy.succeed("sql", "SELECT name FROM inodes").out().contains("external.bin"));
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT size FROM inodes WHERE name = 'external.bin'")) {
      assertTrue(rows.next(), "the inode is in the external database");
      assertEquals(content.length, rows.getLong(1));
    }

    canopy.succeed("down");
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "")) {
      assertTrue(connection.isValid(5), "canopy down must not stop a database it did not start");
    }
    canopy.up();
    Path back = work.resolve("back.bin");
    canopy.succeed("dfs", "-get", "/external.bin", back.toString());
    assertArrayEquals(content, Files.readAllBytes(back));
    canopy.succeed("down");
  }
}
