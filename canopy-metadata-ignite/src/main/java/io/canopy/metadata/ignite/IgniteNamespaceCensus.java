package io.canopy.metadata.ignite;

import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.StoreException;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.sql.IgniteSql;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;

/** Namespace counts as two queries outside any transaction (Ignite's implicit read-only ones), each a table scan. */
final class IgniteNamespaceCensus implements NamespaceCensus {
  private static final long TIMEOUT_SECONDS = 60;
  private static final String INODES = "SELECT SUM(CASE WHEN IS_DIR THEN 1 ELSE 0 END), "
      + "SUM(CASE WHEN NOT IS_DIR AND SYMLINK_TARGET IS NULL THEN 1 ELSE 0 END), "
      + "SUM(CASE WHEN SYMLINK_TARGET IS NOT NULL THEN 1 ELSE 0 END) FROM " + IgniteSchema.INODES;
  /** Database-resident blocks (small files, design 016) have negative ids. */
  private static final String BLOCKS = "SELECT SUM(CASE WHEN BLOCK_ID >= 0 THEN 1 ELSE 0 END), "
      + "SUM(CASE WHEN BLOCK_ID < 0 THEN 1 ELSE 0 END) FROM " + IgniteSchema.BLOCKS;

  private final HomeNodeClient clients;

  IgniteNamespaceCensus(HomeNodeClient clients) {
    this.clients = clients;
  }

  @Override
  public Counts count() throws StoreException {
    long[] inodes = row(INODES, 3);
    long[] blocks = row(BLOCKS, 2);
    return new Counts(inodes[0], inodes[1], inodes[2], blocks[0], blocks[1]);
  }

  private long[] row(String query, int columns) throws StoreException {
    IgniteSql sql = clients.get().sql();
    Statement statement = sql.statementBuilder().query(query).queryTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .build();
    try (ResultSet<SqlRow> rows = sql.execute(null, statement)) {
      SqlRow row = rows.next();
      long[] values = new long[columns];
      for (int i = 0; i < columns; i++) {
        Object value = row.value(i);
        values[i] = value == null ? 0 : ((Number) value).longValue(); // SUM over no rows is NULL
      }
      return values;
    } catch (RuntimeException e) {
      throw IgniteErrors.translate("counting the namespace", e, false);
    }
  }
}
