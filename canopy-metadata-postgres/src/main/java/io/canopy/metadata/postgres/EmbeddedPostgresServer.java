package io.canopy.metadata.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real PostgreSQL server run from the zonky binaries jar, with its data directory where the caller says (under
 * the cluster directory by default). Durable: fsync and synchronous commit stay on.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  /** Database holding Canopy's metadata inside the embedded server. */
  public static final String DATABASE = "postgres";
  public static final String USER = "postgres";

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /**
   * Starts (initializing the data directory when empty) on 127.0.0.1 at {@code port}; 0 picks a free port.
   */
  public static EmbeddedPostgresServer start(Path dataDirectory, int port) throws IOException {
    Files.createDirectories(dataDirectory);
    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
        .setDataDirectory(dataDirectory)
        .setCleanDataDirectory(false)
        .setPGStartupWait(Duration.ofSeconds(60))
        .setServerConfig("listen_addresses", "127.0.0.1")
        .setServerConfig("max_connections", "400")
        .setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on");
    if (port > 0) {
      builder.setPort(port);
    }
    return new EmbeddedPostgresServer(builder.start());
  }

  public int port() {
    return postgres.getPort();
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
