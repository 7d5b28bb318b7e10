package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which login each command gets, for the embedded database and for an external one. */
class MetadataAccessTest {
  private static final String URL = "jdbc:postgresql://127.0.0.1:5000/postgres";

  @TempDir
  Path dir;

  @Test
  void theEmbeddedDatabasesLoginsAreItsGeneratedRoles() {
    ClusterLayout layout = new ClusterLayout(dir);
    ClusterProperties cluster = new ClusterProperties(1, 0, Map.of("db", 5000, "namenode-1", 5001),
        Map.of("canopy.metadata.statement-timeout-ms", "20000"));
    Map<String, String> reader = MetadataAccess.settings(layout, cluster, MetadataAccess.Login.READER, URL);
    assertEquals("canopy_reader", reader.get("canopy.metadata.jdbc.user"));
    assertEquals(layout.secretsDir().resolve("canopy_reader.password").toString(),
        reader.get("canopy.metadata.jdbc.password-file"));
    assertEquals("false", reader.get("canopy.metadata.migrate"), "a read-only login cannot migrate the schema");
    assertEquals("20000", reader.get("canopy.metadata.statement-timeout-ms"));
    Map<String, String> owner = MetadataAccess.settings(layout, cluster, MetadataAccess.Login.OWNER, URL);
    assertEquals("canopy_owner", owner.get("canopy.metadata.jdbc.user"));
    assertFalse(owner.containsKey("canopy.metadata.migrate"));
  }

  @Test
  void loginSettingsAreForAnExternalDatabaseOnly() {
    CliException refused = assertThrows(CliException.class,
        () -> MetadataAccess.checkLoginSettings(ClusterProperties.POSTGRES, Map.of("canopy.metadata.jdbc.user", "postgres")));
    assertEquals(2, refused.exitCode());
    assertTrue(refused.getMessage().contains("canopy.metadata.jdbc.url"), refused.getMessage());
    MetadataAccess.checkLoginSettings(ClusterProperties.POSTGRES, Map.of("canopy.metadata.jdbc.url", URL, "canopy.metadata.jdbc.user", "o"));
  }

  @Test
  void anExternalDatabaseNeedsItsReaderForReadOnlyCommands() {
    ClusterLayout layout = new ClusterLayout(dir);
    Map<String, String> login = Map.of("canopy.metadata.jdbc.url", URL, "canopy.metadata.jdbc.user", "meta_owner",
        "canopy.metadata.jdbc.password", "secret");
    ClusterProperties withoutReader = new ClusterProperties(1, 0, Map.of("namenode-1", 5001), login);
    CliException missing = assertThrows(CliException.class,
        () -> MetadataAccess.settings(layout, withoutReader, MetadataAccess.Login.READER, null));
    assertTrue(missing.getMessage().contains("canopy.metadata.reader.user"), missing.getMessage());

    Map<String, String> withReaderLogin = new java.util.HashMap<>(login);
    withReaderLogin.put("canopy.metadata.reader.user", "meta_reader");
    withReaderLogin.put("canopy.metadata.reader.password-file", "/etc/canopy/reader.password");
    ClusterProperties cluster = new ClusterProperties(1, 0, Map.of("namenode-1", 5001), withReaderLogin);
    Map<String, String> reader = MetadataAccess.settings(layout, cluster, MetadataAccess.Login.READER, null);
    assertEquals("meta_reader", reader.get("canopy.metadata.jdbc.user"));
    assertEquals("/etc/canopy/reader.password", reader.get("canopy.metadata.jdbc.password-file"));
    assertFalse(reader.containsKey("canopy.metadata.jdbc.password"), "the owner's password stays the owner's");
    assertEquals("secret", MetadataAccess.settings(layout, cluster, MetadataAccess.Login.OWNER, null)
        .get("canopy.metadata.jdbc.password"));
  }
}
