package io.canopy.metadata.ignite;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.MetadataStoreContractTest;
import io.canopy.metadata.MetadataStoreProvider;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.ignite.client.IgniteClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata-store contract on Ignite 3 as Canopy runs it (issue 18): three in-JVM nodes, every partition with a
 * copy on each; every store starts from emptied tables (the suite's stores never overlap in time except in the
 * fresh-store test, which uses only the newer one).
 */
class IgniteMetadataStoreContractTest extends MetadataStoreContractTest {
  @TempDir
  static Path directory;
  private static final int NODES = 3;
  /** Fewer than Ignite's 25: each test empties every table, a statement per table over all its partitions. */
  private static final int PARTITIONS = 5;
  private static IgniteTestCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = IgniteTestCluster.start(directory, NODES);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One request per read (design 020); sending a batch's unlocked reads together is still to come. */
  @Override
  protected boolean batchesInOneRoundTrip() {
    return false;
  }

  /** The buckets are computed from a storage's replicas when asked. */
  @Override
  protected boolean recordsBucketChangesApart() {
    return false;
  }

  @Override
  protected String adminQueryInodeIdsAndNames() {
    return "SELECT id, name FROM " + IgniteSchema.INODES + " ORDER BY id";
  }

  @Override
  protected String adminQueryDeletingInodes() {
    return "DELETE FROM " + IgniteSchema.INODES;
  }

  /**
   * Ignite has no statement that ends a transaction from inside a query; the way a second statement could get in is
   * a statement list after a query, which must be refused as a whole.
   */
  @Override
  protected String adminQueryCommittingThenDeletingInodes() {
    return "SELECT id FROM " + IgniteSchema.INODES + "; DELETE FROM " + IgniteSchema.INODES;
  }

  @Override
  protected MetadataStore newStore() throws Exception {
    try (IgniteClient client = IgniteClient.builder()
        .addresses(cluster.settings().get(IgniteSettings.ADDRESSES).split(",")).build()) {
      for (String table : IgniteSchema.TABLES) {
        if (client.tables().table(table) != null) {
          client.sql().execute(null, "DELETE FROM " + table).close();
        }
      }
    }
    Map<String, String> settings = new HashMap<>(cluster.settings());
    settings.put(IgniteSettings.REPLICAS, String.valueOf(NODES));
    settings.put(IgniteSettings.PARTITIONS, String.valueOf(PARTITIONS));
    return MetadataStoreProvider.open("ignite", settings);
  }
}
