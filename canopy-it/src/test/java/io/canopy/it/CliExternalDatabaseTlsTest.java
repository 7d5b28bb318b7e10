package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to an external metadata database (issue 20): a PostgreSQL whose administrator accepts only TLS connections
 * ({@code hostssl} in its pg_hba.conf, a self-signed certificate for 127.0.0.1) refuses a plain login, and a
 * {@code canopy up} cluster whose JDBC URL asks for {@code sslmode=verify-full} against that certificate runs on it:
 * the namenodes, {@code canopy up}'s migrations and {@code canopy sql} all connect over TLS, the server checked.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CliExternalDatabaseTlsTest {
  @TempDir
  static Path work;
  static EmbeddedPostgresServer external;
  static String jdbcUrl;
  static Path certificate;
  static Path ownerPassword;
  static Path readerPassword;

  @BeforeAll
  static void startExternalDatabaseWithTlsOnly() throws Exception {
    Path dataDirectory = work.resolve("external-db");
    external = EmbeddedPostgresServer.start(dataDirectory, work.resolve("external-secrets"), 0);
    ownerPassword = CliExternalDatabaseTest.passwordFile(work, "owner.password", "owner-secret");
    readerPassword = CliExternalDatabaseTest.passwordFile(work, "reader.password", "reader-secret");
    String plainUrl = CliExternalDatabaseTest.setUpAsItsAdministrator(external);
    certificate = makeServerCertificate(dataDirectory);
    try (Connection connection = external.superuser().connect(external.jdbcUrl());
        Statement statement = connection.createStatement()) {
      statement.execute("ALTER SYSTEM SET ssl_cert_file = '" + dataDirectory.resolve("server.crt") + "'");
      statement.execute("ALTER SYSTEM SET ssl_key_file = '" + dataDirectory.resolve("server.key") + "'");
      statement.execute("ALTER SYSTEM SET ssl = on");
      // every login from now on over TLS only, the superuser's too
      Files.writeString(dataDirectory.resolve("pg_hba.conf"), "hostssl all all 127.0.0.1/32 scram-sha-256\n");
      statement.execute("SELECT pg_reload_conf()");
    }
    jdbcUrl = plainUrl + "?sslmode=verify-full&sslrootcert=" + certificate;
  }

  /**
   * A self-signed certificate for 127.0.0.1 made with the JDK's keytool, written as PostgreSQL reads it: server.crt
   * and server.key (PEM, PKCS#8, 0600) in the data directory; returns the certificate, the clients' root.
   */
  private static Path makeServerCertificate(Path dataDirectory) throws Exception {
    Path store = work.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "db", "-keyalg", "RSA", "-keysize",
        "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true)
        .start();
    String output;
    try (InputStream out = process.getInputStream()) {
      output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, "keytool: " + output);
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    Certificate cert = keys.getCertificate("db");
    Path crt = dataDirectory.resolve("server.crt");
    Files.writeString(crt, pem("CERTIFICATE", cert.getEncoded()));
    Path key = dataDirectory.resolve("server.key");
    Files.writeString(key, pem("PRIVATE KEY", keys.getKey("db", "changeit".toCharArray()).getEncoded()));
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    Path root = work.resolve("root.crt");
    Files.copy(crt, root);
    return root;
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }

  @AfterAll
  static void stop() throws Exception {
    CliExternalDatabaseTest.stopClusterAndDatabase(work.resolve("cluster"), external);
  }

  @Test
  void aPlainLoginIsRefusedAndACanopyClusterRunsOverTls() throws Exception {
    String plain = "jdbc:postgresql://127.0.0.1:" + external.port() + "/canopy_meta?sslmode=disable";
    SQLException refused = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(plain, "meta_owner", "owner-secret").close());
    assertTrue(refused.getMessage().contains("no encryption") || refused.getMessage().contains("pg_hba.conf"),
        refused.getMessage());

    CliRunner canopy = new CliRunner(work.resolve("cluster"));
    canopy.up("--datanodes", "1", "-D", "canopy.metadata.jdbc.url=" + jdbcUrl, "-D", "dfs.heartbeat.interval=1",
        "-D", "canopy.metadata.jdbc.user=meta_owner", "-D", "canopy.metadata.jdbc.password-file=" + ownerPassword,
        "-D", "canopy.metadata.reader.user=meta_reader", "-D", "canopy.metadata.reader.password-file="
            + readerPassword);
    Path local = work.resolve("file.bin");
    Files.write(local, TestFiles.randomBytes(3_000, 43));
    canopy.succeed("dfs", "-put", local.toString(), "/over-tls.bin");
    assertTrue(canopy.succeed("sql", "SELECT name FROM inodes").out().contains("over-tls.bin"));
    assertTrue(canopy.succeed("sql", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").out()
        .contains(" t"), "canopy sql's own session is over TLS");
    // the namenodes' sessions, as the database's administrator sees them (over TLS too: plain logins are refused)
    int owners = 0;
    try (Connection connection = external.superuser().connect(jdbcUrl);
        Statement statement = connection.createStatement();
        java.sql.ResultSet rows = statement.executeQuery("SELECT a.usename, s.ssl FROM pg_stat_ssl s "
            + "JOIN pg_stat_activity a USING (pid) WHERE a.datname = 'canopy_meta'")) {
      while (rows.next()) {
        assertTrue(rows.getBoolean(2), rows.getString(1) + " has a session without TLS");
        owners += "meta_owner".equals(rows.getString(1)) ? 1 : 0;
      }
    }
    assertTrue(owners > 0, "the namenodes are connected as the owner");
    canopy.succeed("down");
  }
}
