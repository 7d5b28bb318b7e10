package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.NamespaceCensus;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Namespace counts in two statements on a read-only connection (each a scan of its table). */
final class PgNamespaceCensus implements NamespaceCensus {
  private static final String INODES = "SELECT count(*) FILTER (WHERE is_dir), "
      + "count(*) FILTER (WHERE NOT is_dir AND symlink_target IS NULL), "
      + "count(*) FILTER (WHERE symlink_target IS NOT NULL) FROM inodes";
  /** Database-resident blocks (small files, design 016) have negative ids. */
  private static final String BLOCKS = "SELECT count(*) FILTER (WHERE block_id >= 0), "
      + "count(*) FILTER (WHERE block_id < 0) FROM blocks";

  private final HikariDataSource readPool;

  PgNamespaceCensus(HikariDataSource readPool) {
    this.readPool = readPool;
  }

  @Override
  public Counts count() throws StoreException {
    try (Connection connection = readPool.getConnection()) {
      long[] inodes = row(connection, INODES, 3);
      long[] blocks = row(connection, BLOCKS, 2);
      return new Counts(inodes[0], inodes[1], inodes[2], blocks[0], blocks[1]);
    } catch (SQLException e) {
      throw SqlErrors.classify("counting the namespace", e, false);
    }
  }

  private static long[] row(Connection connection, String sql, int columns) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      Jdbc.planPerExecution(statement);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        long[] values = new long[columns];
        for (int i = 0; i < columns; i++) {
          values[i] = rows.getLong(i + 1);
        }
        return values;
      }
    }
  }
}
