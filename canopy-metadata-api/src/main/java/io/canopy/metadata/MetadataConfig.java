package io.canopy.metadata;

import java.util.Map;

/**
 * The {@code canopy.metadata.*} keys every metadata engine and every opener of a store share: which engine, and how
 * many connections its pool holds. An engine's own keys are declared by the engine (PostgreSQL: PostgresSettings).
 */
public final class MetadataConfig {
  /** Prefix of every key handed to the metadata engine (engine, JDBC URL, pool size, timeouts...). */
  public static final String PREFIX = "canopy.metadata.";
  /** The metadata engine, found with {@link java.util.ServiceLoader} by {@link MetadataStoreProvider#engine()}. */
  public static final String ENGINE = "canopy.metadata.engine";
  public static final String ENGINE_DEFAULT = "postgres";
  /**
   * Connections in the store's pool; each concurrent operation holds one. A namenode sizes it to its threads unless
   * set (NameNodeConfig), the command line to its one command at a time.
   */
  public static final String POOL_SIZE = "canopy.metadata.pool.size";
  public static final int POOL_SIZE_DEFAULT = 32;

  private MetadataConfig() {
  }

  /** {@link #ENGINE} of {@code settings}, or its default. */
  public static String engine(Map<String, String> settings) {
    return settings.getOrDefault(ENGINE, ENGINE_DEFAULT);
  }

  /** {@link #POOL_SIZE} of {@code settings}, or its default; the engine checks its range. */
  public static int poolSize(Map<String, String> settings) {
    return Integer.parseInt(settings.getOrDefault(POOL_SIZE, String.valueOf(POOL_SIZE_DEFAULT)));
  }
}
