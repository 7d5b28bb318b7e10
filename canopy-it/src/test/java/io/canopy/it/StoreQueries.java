package io.canopy.it;

import io.canopy.metadata.MetadataStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads a test cluster's metadata tables with SQL (at most 1000 rows a query). */
final class StoreQueries {
  private StoreQueries() {
  }

  static List<List<String>> rows(MetadataStore store, String sql) throws IOException {
    return store.adminQuery(sql, 1000).rows();
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
