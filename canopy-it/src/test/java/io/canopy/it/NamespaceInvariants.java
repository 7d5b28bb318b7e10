package io.canopy.it;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import io.canopy.namenode.check.MetadataCheckReport;
import io.canopy.namenode.check.MetadataInvariants;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The metadata's invariants for tests: {@link #violations} runs {@code canopy fsck}'s checks ({@link
 * MetadataInvariants}); {@link #inodes} reads the inodes rows.
 */
final class NamespaceInvariants {
  private static final int MAX_ROWS = 1_000_000;

  /** One inodes row. */
  record Row(long id, long partitionId, long parentId, String name, boolean directory, long size,
      boolean underConstruction, String clientName, long childrenCount, boolean spreadsChildren) {
  }

  private NamespaceInvariants() {
  }

  private static List<List<String>> query(MetadataStore store, String sql) throws IOException {
    QueryResult result = StoreQueries.query(store, sql, MAX_ROWS);
    if (result.truncated()) {
      throw new IllegalStateException("more than " + MAX_ROWS + " rows for " + sql);
    }
    return result.rows();
  }

  static List<Row> inodes(MetadataStore store) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (List<String> r : query(store, "SELECT id, partition_id, parent_id, name, CASE WHEN is_dir THEN 1 ELSE 0 END,"
        + " size, CASE WHEN under_construction THEN 1 ELSE 0 END, client_name, children_count,"
        + " CASE WHEN spread_children THEN 1 ELSE 0 END FROM inodes")) {
      rows.add(new Row(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)), Long.parseLong(r.get(2)), r.get(3),
          "1".equals(r.get(4)), Long.parseLong(r.get(5)), "1".equals(r.get(6)), r.get(7), Long.parseLong(r.get(8)),
          "1".equals(r.get(9))));
    }
    return rows;
  }

  /**
   * Every violated invariant, one line each, as {@code canopy fsck} finds them ({@link MetadataInvariants}, one
   * snapshot); the warnings (housekeeping the namenodes do on their own) are not violations.
   */
  static List<String> violations(MetadataStore store) throws IOException {
    MetadataCheckReport report = MetadataInvariants.check(store, System.currentTimeMillis(), Long.MAX_VALUE);
    List<String> problems = new ArrayList<>(report.problems());
    if (report.unlistedProblems() > 0) {
      problems.add(report.unlistedProblems() + " more");
    }
    return problems;
  }
}
