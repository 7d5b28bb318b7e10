package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.BlockCensus;
import io.canopy.metadata.BlockKeys;
import io.canopy.metadata.DelegationTokenStore;
import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The PostgreSQL metadata store: a HikariCP pool, Flyway migrations, one connection per transaction. */
final class PostgresMetadataStore implements MetadataStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresMetadataStore.class);
  /** Every file-system table, emptied by a forced format. Never the migration history. */
  private static final List<String> NAMESPACE_TABLES = List.of("variables", "inodes", "blocks", "block_lookup",
      "replicas", "uc_replicas", "leases", "lease_paths", "datanodes", "storages", "invalidated_blocks",
      "retry_cache", "namenodes", "replication_queue", "xattrs", "acl_entries", "directory_quotas",
      "future_blocks", "small_file_inline", "small_file_data", "subtree_operations", "replica_buckets",
      "replica_bucket_changes");

  private final HikariDataSource pool;
  /** Connections of read-only transactions: autocommit, repeatable read (one snapshot per statement/pipeline). */
  private final HikariDataSource readPool;
  private final String description;
  private final PgAdminQueries adminQueries;

  private PostgresMetadataStore(HikariDataSource pool, HikariDataSource readPool, String description) {
    this.pool = pool;
    this.readPool = readPool;
    this.description = description;
    this.adminQueries = new PgAdminQueries(pool);
  }

  private static HikariConfig poolConfig(PostgresSettings settings, String name, boolean snapshotReads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.jdbcUrl());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.poolSize());
    config.setMinimumIdle(Math.min(4, settings.poolSize()));
    config.setAutoCommit(snapshotReads);
    config.setTransactionIsolation(snapshotReads ? "TRANSACTION_REPEATABLE_READ" : "TRANSACTION_READ_COMMITTED");
    config.setPoolName(name);
    config.setConnectionTimeout(settings.connectionTimeoutMs());
    config.setValidationTimeout(settings.validationTimeoutMs());
    settings.driverProperties(snapshotReads).forEach(config::addDataSourceProperty);
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    config.setInitializationFailTimeout(30_000);
    return config;
  }

  /**
   * Flyway's connections: bounded while connecting, but without the namenode's statement and socket timeouts, since a
   * migration of a large namespace may legitimately run for minutes.
   */
  private static DataSource migrationDataSource(PostgresSettings settings) {
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setURL(settings.jdbcUrl());
    source.setUser(settings.user());
    source.setPassword(settings.password());
    int connectSeconds = (int) Math.max(1, (settings.connectionTimeoutMs() + 999) / 1000);
    source.setConnectTimeout(connectSeconds);
    source.setLoginTimeout(connectSeconds);
    return source;
  }

  static PostgresMetadataStore open(PostgresSettings settings) throws StoreException {
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(poolConfig(settings, "canopy-metadata", false));
    } catch (RuntimeException e) {
      throw new StoreException("Cannot connect to the metadata database at " + redact(settings.jdbcUrl()) + ": "
          + e.getMessage(), e);
    }
    if (settings.migrate()) {
      try {
        // Flyway opens its own connections (it needs two): migrating never waits for the pool.
        Flyway.configure().dataSource(migrationDataSource(settings))
            .locations("classpath:db/canopy").load().migrate();
      } catch (RuntimeException e) {
        pool.close();
        throw new StoreException("Schema migration of " + redact(settings.jdbcUrl()) + " failed: " + e.getMessage(),
            e);
      }
      warnIfSuperuser(pool, settings);
    }
    HikariDataSource readPool;
    try {
      readPool = new HikariDataSource(poolConfig(settings, "canopy-metadata-read", true));
    } catch (RuntimeException e) {
      pool.close();
      throw new StoreException("Cannot connect to the metadata database at " + redact(settings.jdbcUrl()) + ": "
          + e.getMessage(), e);
    }
    return new PostgresMetadataStore(pool, readPool, "postgres " + redact(settings.jdbcUrl()));
  }

  /**
   * A store that migrates is a namenode's or the command line's owner login: as a superuser it could run programs
   * and read files on the database server for anyone who can reach it (docs/design/010 has the roles to create).
   */
  private static void warnIfSuperuser(HikariDataSource pool, PostgresSettings settings) {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
      if (row.next() && row.getBoolean(1)) {
        LOG.warn("The metadata database user {} is a superuser; create the owner role of docs/design/010 and set "
            + "{} to it", settings.user(), PostgresSettings.USER);
      }
      connection.rollback();
    } catch (SQLException e) {
      LOG.warn("Cannot tell whether the metadata database user {} is a superuser: {}", settings.user(),
          e.getMessage());
    }
  }

  private static String redact(String jdbcUrl) {
    return jdbcUrl.replaceAll("password=[^&]*", "password=***");
  }

  @Override
  public Transaction begin() throws StoreException {
    try {
      return new PostgresTransaction(pool.getConnection(), false);
    } catch (SQLException e) {
      throw SqlErrors.classify("begin", e, false);
    }
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    Connection connection = null;
    try {
      connection = readPool.getConnection();
      return new PostgresTransaction(connection, true);
    } catch (SQLException e) {
      closeQuietly(connection);
      throw SqlErrors.classify("begin", e, false);
    }
  }

  private static void closeQuietly(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // the pool evicts a broken connection
      }
    }
  }

  @Override
  public int purgeExpiredRetryEntries(long nowMs, int limit) throws StoreException {
    if (limit <= 0) {
      throw new IllegalArgumentException("purge limit must be positive, got " + limit);
    }
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement("DELETE FROM retry_cache WHERE ctid IN "
            + "(SELECT ctid FROM retry_cache WHERE expires_at_ms < ? ORDER BY expires_at_ms LIMIT ?)")) {
      Jdbc.planPerExecution(statement); // how many entries expired decides the plan
      statement.setLong(1, nowMs);
      statement.setInt(2, limit);
      int deleted = statement.executeUpdate();
      connection.commit();
      return deleted;
    } catch (SQLException e) {
      throw SqlErrors.classify("retry cache purge", e, false);
    }
  }

  @Override
  public IdRange allocateIds(IdKind kind, int count) throws StoreException {
    if (count <= 0) {
      throw new IllegalArgumentException("id allocation count must be positive, got " + count);
    }
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(
            "UPDATE variables SET long_value = long_value + ? WHERE name = ? RETURNING long_value")) {
      statement.setLong(1, count);
      statement.setString(2, idVariable(kind));
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          connection.rollback();
          throw new StoreException("The namespace is not formatted: no id sequence " + idVariable(kind));
        }
        long next = row.getLong(1);
        connection.commit();
        return new IdRange(next - count, count);
      }
    } catch (SQLException e) {
      throw SqlErrors.classify("id allocation", e, true);
    }
  }

  /** The variable holding the next value of an id counter. */
  static String idVariable(IdKind kind) {
    return "next_id." + kind.name().toLowerCase();
  }

  @Override
  public NamespaceIdentity identity() throws StoreException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT name, long_value, text_value FROM variables "
            + "WHERE name IN ('namespace_id', 'cluster_id', 'block_pool_id', 'creation_time')")) {
      Long namespaceId = null;
      Long creationTime = null;
      String clusterId = null;
      String blockPoolId = null;
      while (rows.next()) {
        switch (rows.getString(1)) {
          case "namespace_id" -> namespaceId = rows.getLong(2);
          case "creation_time" -> creationTime = rows.getLong(2);
          case "cluster_id" -> clusterId = rows.getString(3);
          case "block_pool_id" -> blockPoolId = rows.getString(3);
          default -> throw new IllegalStateException("unexpected variable " + rows.getString(1));
        }
      }
      connection.rollback();
      if (namespaceId == null || creationTime == null || clusterId == null || blockPoolId == null) {
        return null;
      }
      return new NamespaceIdentity(namespaceId.intValue(), clusterId, blockPoolId, creationTime);
    } catch (SQLException e) {
      throw SqlErrors.classify("reading the namespace identity", e, false);
    }
  }

  @Override
  public void format(NamespaceIdentity identity, Inode root, boolean force) throws StoreException {
    try (Connection connection = pool.getConnection()) {
      try (Statement statement = connection.createStatement()) {
        // Serializes concurrent formats and keeps namenodes from seeing a half-formatted namespace.
        statement.execute("LOCK TABLE variables IN ACCESS EXCLUSIVE MODE");
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM variables")) {
          rows.next();
          if (rows.getLong(1) > 0 && !force) {
            connection.rollback();
            throw new StoreException("The metadata store already holds a namespace; format with force to erase it");
          }
        }
        statement.execute("TRUNCATE " + String.join(", ", NAMESPACE_TABLES));
      }
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO variables (name, long_value, text_value) VALUES (?, ?, ?)")) {
        addVariable(insert, "namespace_id", (long) identity.namespaceId(), null);
        addVariable(insert, "creation_time", identity.creationTime(), null);
        addVariable(insert, "cluster_id", null, identity.clusterId());
        addVariable(insert, "block_pool_id", null, identity.blockPoolId());
        for (IdKind kind : IdKind.values()) {
          addVariable(insert, idVariable(kind), kind.firstValue(), null);
        }
        insert.executeBatch();
      }
      connection.commit();
    } catch (SQLException e) {
      throw SqlErrors.classify("format", e, true);
    }
    try (Transaction transaction = begin()) {
      if (transaction.inodes().get(root.key(), LockMode.EXCLUSIVE).isPresent()) {
        throw new IllegalStateException("root inode survived the format");
      }
      transaction.inodes().insert(root);
      transaction.commit();
    }
  }

  private static void addVariable(PreparedStatement insert, String name, Long longValue, String textValue)
      throws SQLException {
    insert.setString(1, name);
    if (longValue == null) {
      insert.setNull(2, java.sql.Types.BIGINT);
    } else {
      insert.setLong(2, longValue);
    }
    insert.setString(3, textValue);
    insert.addBatch();
  }

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    if (type == AdminQueries.class) {
      return Optional.of(type.cast(adminQueries));
    }
    if (type == BlockKeys.class) {
      return Optional.of(type.cast(new PgBlockKeys(pool)));
    }
    if (type == DelegationTokenStore.class) {
      return Optional.of(type.cast(new PgDelegationTokens(pool)));
    }
    return type == NamespaceCensus.class ? Optional.of(type.cast(new PgNamespaceCensus(readPool)))
        : Optional.empty();
  }

  @Override
  public BlockCensus blockCensus() {
    return new PgBlockCensus(readPool);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    readPool.close();
    pool.close();
  }
}
