package io.canopy.metadata.ignite;

import io.canopy.metadata.BlockCensus;
import io.canopy.metadata.IdKind;
import io.canopy.metadata.IdRange;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.StoreException;
import io.canopy.metadata.dal.Transaction;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.NamespaceIdentity;
import java.util.ArrayList;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;

/**
 * The metadata store on an Ignite 3 cluster, reached as a thin client (design 020). Every namenode holds one client;
 * the client sends each single-partition request to that partition's primary replica.
 */
final class IgniteMetadataStore implements MetadataStore {
  private static final List<String> IDENTITY = List.of("namespace_id", "creation_time", "cluster_id", "block_pool_id");

  private final IgniteClient client;
  private final IgniteSettings settings;
  private final String description;

  IgniteMetadataStore(IgniteClient client, IgniteSettings settings, List<String> addresses) {
    this.client = client;
    this.settings = settings;
    this.description = "Apache Ignite 3 cluster at " + String.join(",", addresses);
  }

  static IgniteMetadataStore open(IgniteSettings settings) throws StoreException {
    List<String> addresses = settings.addresses();
    long timeout = settings.timeoutMs();
    IgniteClient client;
    try {
      client = IgniteClient.builder().addresses(addresses.toArray(new String[0])).connectTimeout(timeout)
          .operationTimeout(timeout).build();
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("connecting to the Ignite cluster at " + addresses, e, false);
    }
    return new IgniteMetadataStore(client, settings, addresses);
  }

  @Override
  public Transaction begin() throws StoreException {
    requireTables();
    return new IgniteTransaction(client, false);
  }

  @Override
  public Transaction beginReadOnly() throws StoreException {
    requireTables();
    return new IgniteTransaction(client, true);
  }

  private void requireTables() throws StoreException {
    try {
      if (client.tables().table(IgniteSchema.INODES) == null) {
        throw new StoreException("The Ignite cluster holds no Canopy tables: format the namespace first");
      }
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("looking up Canopy's tables", e, false);
    }
  }

  @Override
  public int purgeExpiredRetryEntries(long nowMs, int limit) {
    throw new UnsupportedOperationException("the Ignite engine does not carry the retry cache yet (issue 18)");
  }

  @Override
  public IdRange allocateIds(IdKind kind, int count) throws StoreException {
    if (count <= 0) {
      throw new IllegalArgumentException("id allocation count must be positive, got " + count);
    }
    try (Transaction transaction = begin()) {
      long next = transaction.idCounters().next(kind, LockMode.EXCLUSIVE);
      transaction.variables().putLong(IgniteIdCounterTable.variable(kind), next + count);
      transaction.commit();
      return new IdRange(next, count);
    }
  }

  @Override
  public BlockCensus blockCensus() {
    throw new UnsupportedOperationException("the Ignite engine does not carry blocks yet (issue 18)");
  }

  @Override
  public NamespaceIdentity identity() throws StoreException {
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
      client.close();
    } catch (Exception e) {
      // closing a client whose connections are already gone
    }
  }
}
