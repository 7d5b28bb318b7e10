package io.canopy.it;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.postgres.PostgresSettings;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The metadata database as the release before issue 12 made it: zonky's initdb with trust logins, the namenode and the
 * CLI connecting as the superuser without a password, so the tables belong to the superuser. For upgrade tests.
 */
final class PreviousRelease {
  private PreviousRelease() {
  }

  /** Creates the database in {@code dataDirectory} with a formatted namespace holding the empty file {@code path}. */
  static void createCluster(Path dataDirectory, int port, String path) throws IOException {
    Files.createDirectories(dataDirectory);
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dataDirectory)
        .setCleanDataDirectory(false).setPort(port).setServerConfig("listen_addresses", "127.0.0.1")
        .setServerConfig("max_connections", "400").start()) {
      Configuration conf = MiniCanopyCluster.testConfiguration();
      conf.set(PostgresSettings.JDBC_URL, "jdbc:postgresql://127.0.0.1:" + port + "/postgres");
      conf.set(PostgresSettings.USER, "postgres");
      try (MetadataStore store = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf))) {
        NamespaceFormatter.format(store, conf, false);
      }
      try (NameNode nameNode = NameNode.start(new Configuration(conf));
          FileSystem fs = FileSystem.newInstance(URI.create(nameNode.uri()), conf)) {
        fs.create(new org.apache.hadoop.fs.Path(path)).close();
      }
    }
  }
}
