package io.canopy.metadata.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.MetadataConfig;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreContractTest;
import io.canopy.metadata.MetadataStoreProvider;
import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Replica;
import io.canopy.metadata.entity.ReplicaKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import io.canopy.metadata.dal.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the metadata-store contract against a real PostgreSQL: one embedded server per class, one new database
 * per store, opened through {@link MetadataStoreProvider} so the ServiceLoader registration is exercised too.
 */
class PostgresMetadataStoreContractTest extends MetadataStoreContractTest {
  @TempDir
  static Path serverDirectory;

  private static EmbeddedPostgresServer server;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  @BeforeAll
  static void startServer() throws Exception {
    server = EmbeddedPostgresServer.start(serverDirectory.resolve("pgdata"), serverDirectory.resolve("secrets"), 0);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  /** A new database owned by the owner role, so the contract also proves that role needs nothing more. */
  private static Map<String, String> newDatabase(String prefix) throws Exception {
    String database = prefix + DATABASES.incrementAndGet();
    try (Connection admin = server.superuser().connect(server.jdbcUrl());
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE " + database + " OWNER " + DatabaseRoles.OWNER);
    }
    return new HashMap<>(PostgresSettings.login("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database,
        server.owner()));
  }

  @Override
  protected MetadataStore newStore() throws Exception {
    Map<String, String> settings = newDatabase("contract_");
    settings.put(MetadataConfig.POOL_SIZE, "8");
    settings.put(PostgresSettings.LOCK_TIMEOUT_MS, "5000");
    return MetadataStoreProvider.open("postgres", settings);
  }

  /**
   * A database made before the hash buckets (schema 14) gets them from its recorded replicas when it migrates: good
   * replicas of complete blocks with their blocks' stamp and length, every other replica unmatchable.
   */
  @org.junit.jupiter.api.Test
  void migratingAnOlderSchemaComputesTheBucketsOfTheReplicasItHolds() throws Exception {
    Map<String, String> settings = newDatabase("upgrade_");
    String url = settings.get(PostgresSettings.JDBC_URL);
    org.flywaydb.core.Flyway.configure().dataSource(url, server.owner().user(),
        java.nio.file.Files.readString(server.owner().passwordFile()).strip())
        .locations("classpath:db/canopy").target("14").load().migrate();
    try (Connection owner = server.owner().connect(url)) {
      try (Statement statement = owner.createStatement()) {
        owner.setAutoCommit(true);
        statement.execute("INSERT INTO blocks (inode_id, block_id, block_index, num_bytes, generation_stamp, state) "
            + "VALUES (20001, 7, 0, 100, 1001, 2), (20001, 16391, 1, 5, 1002, 2), (20002, 8, 0, 0, 1003, 0)");
        statement.execute("INSERT INTO replicas (inode_id, block_id, storage_id, corrupt_reason, "
            + "corrupt_generation_stamp) VALUES (20001, 7, 'DS-1', 0, 0), (20001, 16391, 'DS-1', 1, 1000), "
            + "(20002, 8, 'DS-1', 0, 0), (20009, 9, 'DS-1', 0, 0), (20001, 7, 'DS-2', 0, 0)");
      }
    }
    settings.put(MetadataConfig.POOL_SIZE, "2");
    try (MetadataStore upgraded = MetadataStoreProvider.open("postgres", settings);
        Transaction tx = upgraded.begin()) {
      io.canopy.metadata.ReplicaBuckets expected = new io.canopy.metadata.ReplicaBuckets();
      expected.add(7, 1001, 100);
      expected.addUnmatchable(16391); // corrupt
      expected.addUnmatchable(8); // block under construction
      expected.addUnmatchable(9); // no block
      org.junit.jupiter.api.Assertions.assertEquals(expected.buckets(), tx.replicas().buckets("DS-1"));
      io.canopy.metadata.ReplicaBuckets other = new io.canopy.metadata.ReplicaBuckets();
      other.add(7, 1001, 100);
      org.junit.jupiter.api.Assertions.assertEquals(other.buckets(), tx.replicas().buckets("DS-2"));
    }
  }

  /**
   * The fold deletes the bucket rows it leaves empty (a storage's replicas of a bucket all gone, a removed storage),
   * so they do not pile up; the changes table is empty after a fold that moved fewer than its limit.
   */
  @org.junit.jupiter.api.Test
  void foldingDeletesTheBucketRowsItLeavesEmpty() throws Exception {
    Map<String, String> settings = newDatabase("fold_");
    String url = settings.get(PostgresSettings.JDBC_URL);
    settings.put(MetadataConfig.POOL_SIZE, "2");
    try (MetadataStore folding = MetadataStoreProvider.open("postgres", settings)) {
      try (Transaction tx = folding.begin()) {
        tx.blocks().insert(new Block(20_001, 7, 0, 10, 1_001, BlockState.COMPLETE));
        tx.blocks().insert(new Block(20_001, 8, 1, 10, 1_001, BlockState.COMPLETE));
        tx.replicas().insert(new Replica(20_001, 7, "DS-1"));
        tx.replicas().insert(new Replica(20_001, 8, "DS-1"));
        tx.commit();
      }
      try (Transaction tx = folding.begin()) {
        tx.replicas().foldBucketChanges(100);
        tx.commit();
      }
      assertEquals(2, count(url, "SELECT count(*) FROM replica_buckets WHERE storage_id = 'DS-1'"));
      try (Transaction tx = folding.begin()) {
        tx.replicas().delete(new ReplicaKey(20_001, 7, "DS-1"));
        tx.commit();
      }
      try (Transaction tx = folding.begin()) {
        tx.replicas().foldBucketChanges(100);
        tx.commit();
      }
      assertEquals(1, count(url, "SELECT count(*) FROM replica_buckets WHERE storage_id = 'DS-1'"),
          "bucket 7's row, left empty, is gone");
      assertEquals(0, count(url, "SELECT count(*) FROM replica_bucket_changes"));
      try (Transaction tx = folding.begin()) {
        assertEquals(java.util.Set.of(8), tx.replicas().buckets("DS-1").keySet());
      }
    }
  }

  private static long count(String url, String sql) throws Exception {
    try (Connection owner = server.owner().connect(url); Statement statement = owner.createStatement();
        java.sql.ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }

  /** PostgreSQL offers operators' SQL, so the contract's tests of it run here rather than being skipped. */
  @org.junit.jupiter.api.Test
  void offersAdminQueries() {
    org.junit.jupiter.api.Assertions.assertTrue(store.capability(AdminQueries.class).isPresent());
    org.junit.jupiter.api.Assertions.assertTrue(store.capability(String.class).isEmpty());
  }

  /**
   * Small files land in the tier of their size (design 016): at most 1 KB in the inline tier, larger ones in the
   * other, never compressed; a file moved between tiers leaves no row in the other.
   */
  @org.junit.jupiter.api.Test
  void smallFilesLandInTheTierOfTheirSize() throws Exception {
    inTransaction(tx -> {
      tx.smallFiles().put(40_001, new byte[1024]);
      tx.smallFiles().put(40_002, new byte[1025]);
      tx.smallFiles().put(40_003, new byte[65536]);
      tx.smallFiles().put(40_004, new byte[20_000]);
    });
    inTransaction(tx -> tx.smallFiles().put(40_004, new byte[5])); // larger tier -> inline
    AdminQueries admin = store.capability(AdminQueries.class).orElseThrow();
    org.junit.jupiter.api.Assertions.assertEquals(List.of(List.of("40001", "1024"), List.of("40004", "5")),
        admin.adminQuery("SELECT inode_id, length(data) FROM small_file_inline "
            + "WHERE inode_id BETWEEN 40001 AND 40004 ORDER BY inode_id", 10).rows());
    org.junit.jupiter.api.Assertions.assertEquals(List.of(List.of("40002", "1025"), List.of("40003", "65536")),
        admin.adminQuery("SELECT inode_id, length(data) FROM small_file_data "
            + "WHERE inode_id BETWEEN 40001 AND 40004 ORDER BY inode_id", 10).rows());
    org.junit.jupiter.api.Assertions.assertEquals(List.of(List.of("e")), admin.adminQuery("SELECT attstorage "
        + "FROM pg_attribute WHERE attrelid = 'small_file_data'::regclass AND attname = 'data'", 1).rows(),
        "the larger tier's bytes are never compressed");
  }

  @org.junit.jupiter.api.Test
  void sessionSettingsSurviveRolledBackTransactions() throws Exception {
    Map<String, String> settings = newDatabase("settings_");
    settings.putAll(Map.of(
        MetadataConfig.POOL_SIZE, "1",
        PostgresSettings.LOCK_TIMEOUT_MS, "1234",
        PostgresSettings.STATEMENT_TIMEOUT_MS, "4321",
        PostgresSettings.IDLE_IN_TRANSACTION_TIMEOUT_MS, "5678",
        PostgresSettings.SYNCHRONOUS_COMMIT, "local"));
    try (MetadataStore store = MetadataStoreProvider.open("postgres", settings)) {
      for (int i = 0; i < 3; i++) {
        store.begin().rollback(); // the pool's only connection, rolled back
      }
      AdminQueries admin = store.capability(AdminQueries.class).orElseThrow();
      org.junit.jupiter.api.Assertions.assertEquals("1234ms",
          admin.adminQuery("SHOW lock_timeout", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("local",
          admin.adminQuery("SHOW synchronous_commit", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("4321ms",
          admin.adminQuery("SHOW statement_timeout", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("5678ms",
          admin.adminQuery("SHOW idle_in_transaction_session_timeout", 1).rows().get(0).get(0));
      org.junit.jupiter.api.Assertions.assertEquals("off", admin.adminQuery("SHOW enable_seqscan", 1).rows().get(0)
          .get(0), "key lookups use their index whatever the statistics say");
    }
  }
  /**
   * Several rows of a block are one statement: a new block's three pipeline replicas cost the commit one insert,
   * and closing the block one delete (design 012).
   */
  @org.junit.jupiter.api.Test
  void aBlocksRowsAreOneStatementInTheCommit() throws Exception {
    List<io.canopy.metadata.entity.UcReplica> pipeline = new ArrayList<>();
    for (String storage : List.of("DS-1", "DS-2", "DS-3")) {
      pipeline.add(new io.canopy.metadata.entity.UcReplica(30_001, 4_001, storage,
          io.canopy.metadata.entity.UcReplicaState.EXPECTED, 4_001));
    }
    try (Transaction tx = store.begin()) {
      pipeline.forEach(tx.ucReplicas()::insert);
      tx.commit();
      org.junit.jupiter.api.Assertions.assertEquals(2, tx.statements(), "one insert and the commit");
    }
    try (Transaction tx = store.begin()) {
      pipeline.forEach(r -> tx.ucReplicas().delete(r.key()));
      tx.commit();
      org.junit.jupiter.api.Assertions.assertEquals(2, tx.statements(), "one delete and the commit");
    }
    try (Transaction tx = store.begin()) {
      org.junit.jupiter.api.Assertions.assertEquals(List.of(), tx.ucReplicas().ofFile(30_001));
    }
  }
}
