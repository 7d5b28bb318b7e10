package io.canopy.metadata.ignite;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.BlockCensus;
import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/**
 * The metadata store on an Ignite 3 cluster, reached as a thin client (design 020). Every namenode holds one client,
 * connected to one database node at a time ({@link HomeNodeClient}); that node routes each request to the partition's
 * primary replica.
 */
final class IgniteMetadataStore implements MetadataStore {
  /** Attempts of an id allocation that meets other allocations' locks. */
  private static final int ALLOCATION_ATTEMPTS = 200;
  private static final List<String> IDENTITY = List.of("namespace_id", "creation_time", "cluster_id", "block_pool_id");

  private final HomeNodeClient clients;
  private final IgniteSettings settings;
  private final String description;
  private final IgniteAdminQueries adminQueries;
  private final IgniteScans scans = new IgniteScans();
  /** {@link IgniteSettings#TRANSACTION_TIMEOUT_MS}, checked when the store opens. */
  private final long transactionTimeoutMs;

  IgniteMetadataStore(HomeNodeClient clients, IgniteSettings settings, List<String> addresses)
      throws StoreException {
    this.clients = clients;
    this.transactionTimeoutMs = settings.transactionTimeoutMs();
    this.settings = settings;
    this.description = "Apache Ignite 3 cluster at " + String.join(",", addresses);
    this.adminQueries = new IgniteAdminQueries(clients);
  }

  static IgniteMetadataStore open(IgniteSettings settings) throws StoreException {
    List<String> addresses = settings.addresses();
    long timeout = settings.timeoutMs();
    settings.transactionTimeoutMs(); // checked before any connection is made
    HomeNodeClient clients = new HomeNodeClient(addresses, address -> IgniteClient.builder().addresses(address)
        .connectTimeout(timeout).loggerFactory(new QuietClientLogging()).operationTimeout(timeout).build());
    return new IgniteMetadataStore(clients, settings, addresses);
  }

  @Override
  public Transaction begin() throws StoreException {
    IgniteClient client = clients.get();
    requireTables(client);
    return new IgniteTransaction(client, false, scans, transactionTimeoutMs);
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    IgniteClient client = clients.get();
    requireTables(client);
    return new IgniteTransaction(client, true, scans, transactionTimeoutMs);
  }

  /** Checks that the namespace is formatted and looks its tables up, once per connection ({@link IgniteViews}). */
  private static void requireTables(IgniteClient client) throws StoreException {
    IgniteViews.load(client);
  }

  @Override
  public int purgeExpiredRetryEntries(long nowMs, int limit) throws StoreException {
    try (Transaction transaction = begin()) {
      IgniteTransaction ignite = (IgniteTransaction) transaction;
      List<org.apache.ignite.sql.SqlRow> expired = ignite.session().query("SELECT /*+ FORCE_INDEX("
          + IgniteSchema.RETRY_CACHE + "_BY_EXPIRY) */ CLIENT_ID, CALL_ID FROM " + IgniteSchema.RETRY_CACHE
          + " WHERE EXPIRES_AT_MS < ? ORDER BY EXPIRES_AT_MS LIMIT ?", LockMode.SHARED,
          "finding expired retry-cache entries", nowMs, limit);
      List<Tuple> keys = new ArrayList<>();
      for (org.apache.ignite.sql.SqlRow row : expired) {
        keys.add(Tuple.create(2).set("CLIENT_ID", row.stringValue("CLIENT_ID")).set("CALL_ID", row.intValue("CALL_ID")));
      }
      if (!keys.isEmpty()) {
        try {
          IgniteViews.of(ignite.session().client(), IgniteSchema.RETRY_CACHE)
              .deleteAll(ignite.session().transaction(), keys);
        } catch (RuntimeException e) {
          throw IgniteErrors.translate("purging the retry cache", e, false);
        }
      }
      transaction.commit();
      return keys.size();
    }
  }

  @Override
  public IdRange allocateIds(IdKind kind, int count) throws StoreException {
    if (count <= 0) {
      throw new IllegalArgumentException("id allocation count must be positive, got " + count);
    }
    // A compare-and-set of the counter's row in one implicit transaction: no lock held between the read and the
    // write, so concurrent allocations never meet in a lock upgrade (wait-die would make all but the oldest fail);
    // a lost race reads the counter again.
    RecordView<Tuple> view = IgniteVariableTable.view(clients.get());
    Tuple key = IgniteVariableTable.key(IgniteIdCounterTable.variable(kind));
    for (int attempt = 1; ; attempt++) {
      try {
        Tuple row = view.get(null, key);
        if (row == null || row.value("LONG_VALUE") == null) {
          throw new StoreException("The namespace is not formatted: no id counter "
              + IgniteIdCounterTable.variable(kind));
        }
        long next = row.longValue("LONG_VALUE");
        Tuple moved = IgniteVariableTable.key(IgniteIdCounterTable.variable(kind)).set("LONG_VALUE", next + count)
            .set("TEXT_VALUE", row.stringValue("TEXT_VALUE"));
        if (view.replace(null, row, moved)) {
          return new IdRange(next, count);
        }
      } catch (RuntimeException e) {
        StoreException failure = IgniteErrors.translate("allocating " + kind + " ids", e, true);
        if (!(failure instanceof TransientStoreException transientFailure) || transientFailure.outcomeUnknown()
            || attempt >= ALLOCATION_ATTEMPTS) {
          throw failure;
        }
      }
      if (attempt >= ALLOCATION_ATTEMPTS) {
        throw new TransientStoreException("allocating " + kind + " ids: the counter kept changing for "
            + ALLOCATION_ATTEMPTS + " attempts", null, false);
      }
      pause(attempt);
    }
  }

  /** A short pause growing with the attempt, randomized so that contenders spread out. */
  private static void pause(int attempt) throws StoreException {
    try {
      Thread.sleep(1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(Math.min(50, 2 * attempt)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while allocating ids", e);
    }
  }

  @Override
  public <T> Optional<T> capability(Class<T> type) {
    if (type == AdminQueries.class) {
      return Optional.of(type.cast(adminQueries));
    }
    return type == NamespaceCensus.class ? Optional.of(type.cast(new IgniteNamespaceCensus(clients)))
        : Optional.empty();
  }

  /** Wait-die: a conflicting request of the younger transaction fails at once. */
  @Override
  public boolean queuesLockRequests() {
    return false;
  }

  @Override
  public BlockCensus blockCensus() {
    return new IgniteBlockCensus(clients);
  }

  @Override
  public NamespaceIdentity identity() throws StoreException {
    IgniteClient client = clients.get();
    if (client.tables().table(IgniteSchema.VARIABLES) == null) {
      return null;
    }
    RecordView<Tuple> view = IgniteVariableTable.view(client);
    List<Tuple> keys = new ArrayList<>();
    for (String name : IDENTITY) {
      keys.add(IgniteVariableTable.key(name));
    }
    List<Tuple> rows;
    try {
      rows = view.getAll(null, keys);
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("reading the namespace identity", e, false);
    }
    for (Tuple row : rows) {
      if (row == null) {
        return null;
      }
    }
    return new NamespaceIdentity((int) rows.get(0).longValue("LONG_VALUE"), rows.get(2).stringValue("TEXT_VALUE"),
        rows.get(3).stringValue("TEXT_VALUE"), rows.get(1).longValue("LONG_VALUE"));
  }

  @Override
  public void format(NamespaceIdentity identity, Inode root, boolean force) throws StoreException {
    IgniteClient client = clients.get();
    try {
      client.sql().executeScript(IgniteSchema.script(settings.zone(), settings.replicas(), settings.partitions()));
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("creating Canopy's tables", e, false);
    }
    if (identity() != null && !force) {
      throw new StoreException("The metadata store already holds a namespace; format with force to erase it");
    }
    try {
      for (String table : IgniteSchema.TABLES) {
        client.sql().execute(null, "DELETE FROM " + table).close();
      }
      List<Tuple> rows = new ArrayList<>();
      rows.add(IgniteVariableTable.key("namespace_id").set("LONG_VALUE", (long) identity.namespaceId()));
      rows.add(IgniteVariableTable.key("creation_time").set("LONG_VALUE", identity.creationTime()));
      rows.add(IgniteVariableTable.key("cluster_id").set("TEXT_VALUE", identity.clusterId()));
      rows.add(IgniteVariableTable.key("block_pool_id").set("TEXT_VALUE", identity.blockPoolId()));
      for (IdKind kind : IdKind.values()) {
        rows.add(IgniteVariableTable.key(IgniteIdCounterTable.variable(kind)).set("LONG_VALUE", kind.firstValue()));
      }
      IgniteVariableTable.view(client).upsertAll(null, rows);
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("format", e, true);
    }
    try (Transaction transaction = begin()) {
      if (transaction.inodes().get(root.key(), LockMode.EXCLUSIVE).isPresent()) {
        throw new IllegalStateException("root inode survived the format");
      }
      transaction.inodes().insert(root);
      transaction.commit();
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    try {
      clients.close();
    } finally {
      scans.close();
    }
  }
}
