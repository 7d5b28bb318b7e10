package io.canopy.metadata.ignite;

import io.canopy.metadata.StoreException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.client.IgniteClient;
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
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("looking up Canopy's tables", e, false);
    }
  }

  /** The view of {@code table} for {@code client} (looked up now if {@link #load} did not). */
  static RecordView<Tuple> of(IgniteClient client, String table) {
    Map<String, RecordView<Tuple>> views = BY_CLIENT.computeIfAbsent(client, c -> new ConcurrentHashMap<>());
    return views.computeIfAbsent(table, name -> client.tables().table(name).recordView());
  }
}
