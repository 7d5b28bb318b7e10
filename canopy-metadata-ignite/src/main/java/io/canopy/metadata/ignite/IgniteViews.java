package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Table;
import org.apache.ignite.table.Tuple;

/**
 * The record views of Canopy's tables, looked up once per client: the thin client asks the cluster for a table each
 * time {@code tables().table(name)} is called (a round trip), and every DAL transaction uses about twenty tables
 * (design 020, "One request per read"). {@link #load} fills a client's views at once, inside the store's error
 * handling; the tables' constructors then read them from here.
 */
final class IgniteViews {
  /** Per client; a replaced client (a node lost, {@link HomeNodeClient}) and its views are left to the collector. */
  private static final Map<IgniteClient, Map<String, RecordView<Tuple>>> BY_CLIENT =
      Collections.synchronizedMap(new WeakHashMap<>());

  private IgniteViews() {
  }

  /** Looks up every table of Canopy's schema for {@code client}, unless done before; fails when one is missing. */
  static void load(IgniteClient client) throws StoreException {
    Map<String, RecordView<Tuple>> views = BY_CLIENT.computeIfAbsent(client, c -> new ConcurrentHashMap<>());
    if (views.size() == IgniteSchema.TABLES.size()) {
      return;
    }
    try {
      for (String name : IgniteSchema.TABLES) {
        if (!views.containsKey(name)) {
          Table table = client.tables().table(name);
          if (table == null) {
            throw new StoreException("The Ignite cluster holds no Canopy table " + name
                + ": format the namespace first");
          }
          views.put(name, table.recordView());
        }
      }
      requireInodeIndexes(client);
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("looking up Canopy's tables", e, false);
    }
  }

  /** How long a namespace formatted without the per-file hash indexes waits for them to be built. */
  private static final long INDEX_BUILD_WAIT_MS = 120_000;

  /**
   * Makes the per-file tables' hash indexes ({@link IgniteSchema#byInode}) of a namespace formatted before they
   * existed, and waits until Ignite has built them: reads name them.
   */
  private static void requireInodeIndexes(IgniteClient client) throws StoreException {
    long deadline = System.nanoTime() + INDEX_BUILD_WAIT_MS * 1_000_000;
    boolean created = false;
    while (true) {
      Set<String> available = new HashSet<>();
      Set<String> present = new HashSet<>();
      try (ResultSet<SqlRow> rows = client.sql().execute(null,
          "SELECT INDEX_NAME, INDEX_STATE FROM SYSTEM.INDEXES WHERE INDEX_NAME LIKE '%BY_INODE'")) {
        rows.forEachRemaining(row -> {
          present.add(row.stringValue(0));
          if ("AVAILABLE".equals(row.stringValue(1))) {
            available.add(row.stringValue(0));
          }
        });
      }
      List<String> missing = IgniteSchema.READ_BY_INODE.stream()
          .filter(table -> !available.contains(IgniteSchema.byInode(table))).toList();
      if (missing.isEmpty()) {
        return;
      }
      if (!created) {
        for (String table : missing) {
          if (!present.contains(IgniteSchema.byInode(table))) {
            client.sql().executeScript(IgniteSchema.hashIndexByInode(table));
          }
        }
        created = true;
      }
      if (System.nanoTime() > deadline) {
        throw new StoreException("The Ignite cluster's indexes " + missing.stream().map(IgniteSchema::byInode)
            .toList() + " were not built within " + INDEX_BUILD_WAIT_MS + " ms (a namespace formatted by an older"
            + " Canopy gets them on first use)");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted waiting for the per-file indexes to be built", e);
      }
    }
  }

  /** The view of {@code table} for {@code client} (looked up now if {@link #load} did not). */
  static RecordView<Tuple> of(IgniteClient client, String table) {
    Map<String, RecordView<Tuple>> views = BY_CLIENT.computeIfAbsent(client, c -> new ConcurrentHashMap<>());
    return views.computeIfAbsent(table, name -> client.tables().table(name).recordView());
  }
}
