package io.canopy.it;

import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a test cluster's metadata tables with SQL, through the store's {@link AdminQueries} capability; the SQL names
 * the tables as docs/schema.md does (mapped onto Ignite 3's by {@link AdminQueries#withSchemaNames}).
 */
final class StoreQueries {
  private StoreQueries() {
  }

  /** At most {@code maxRows} rows of {@code sql}; fails when the store's engine runs no administrative queries. */
  static QueryResult query(MetadataStore store, String sql, int maxRows) throws IOException {
    AdminQueries admin = store.capability(AdminQueries.class)
        .orElseThrow(() -> new AssertionError(store.describe() + " runs no administrative queries"));
    return admin.adminQuery(admin.withSchemaNames(sql), maxRows);
  }

  /** Whether {@code store} is on Ignite 3, whose tables are named otherwise ({@link AdminQueries#withSchemaNames}). */
  static boolean onIgnite(MetadataStore store) {
    return store.describe().startsWith("Apache Ignite");
  }

  /** At most 1000 rows of {@code sql}. */
  static List<List<String>> rows(MetadataStore store, String sql) throws IOException {
    return query(store, sql, 1000).rows();
  }

  /** The first column of every row. */
  static List<String> column(MetadataStore store, String sql) throws IOException {
    List<String> values = new ArrayList<>();
    rows(store, sql).forEach(row -> values.add(row.get(0)));
    return values;
  }

  /** The number a {@code SELECT count(*) ...} answers. */
  static long count(MetadataStore store, String sql) throws IOException {
    return Long.parseLong(rows(store, sql).get(0).get(0));
  }
}
