package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.AdminQueries;
import io.canopy.metadata.QueryResult;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.Parser;

/**
 * Operators' SQL ({@code canopy sql}): one statement, in a read-only transaction, with a timeout; and snapshot reads
 * ({@code canopy fsck}): statements in one read-only repeatable-read transaction, rows fetched a page at a time.
 */
final class PgAdminQueries implements AdminQueries {
  private static final int ADMIN_QUERY_TIMEOUT_SECONDS = 30;
  /** A snapshot's query reads a whole table: minutes on a namespace of many millions of rows, never unbounded. */
  private static final int SNAPSHOT_QUERY_TIMEOUT_SECONDS = 1800;
  private static final int SNAPSHOT_FETCH_ROWS = 2000;

  private final HikariDataSource pool;

  PgAdminQueries(HikariDataSource pool) {
    this.pool = pool;
  }

  @Override
  public QueryResult adminQuery(String query, int maxRows) throws StoreException {
    try (Connection connection = pool.getConnection()) {
      requireOneStatement(connection, query);
      connection.setReadOnly(true);
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET TRANSACTION READ ONLY");
        statement.setMaxRows((int) Math.min(Integer.MAX_VALUE, maxRows + 1L));
        statement.setQueryTimeout(ADMIN_QUERY_TIMEOUT_SECONDS);
        try (ResultSet rows = statement.executeQuery(query)) {
          ResultSetMetaData meta = rows.getMetaData();
          List<String> columns = new ArrayList<>();
          for (int c = 1; c <= meta.getColumnCount(); c++) {
            columns.add(meta.getColumnLabel(c));
          }
          List<List<String>> result = new ArrayList<>();
          boolean truncated = false;
          while (rows.next()) {
            if (result.size() == maxRows) {
              truncated = true;
              break;
            }
            List<String> row = new ArrayList<>();
            for (int c = 1; c <= columns.size(); c++) {
              row.add(rows.getString(c));
            }
            result.add(row);
          }
          return new QueryResult(columns, result, truncated);
        }
      } finally {
        connection.rollback();
        connection.setReadOnly(false);
      }
    } catch (SQLException e) {
      throw new StoreException("Query failed: " + e.getMessage(), e);
    }
  }

  @Override
  public <T> T inSnapshot(SnapshotWork<T> work) throws StoreException {
    try (Connection connection = pool.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false); // the driver fetches a page at a time only inside a transaction
      connection.setReadOnly(true);
      try {
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        }
        return work.run((query, consumer) -> forEachRow(connection, query, consumer));
      } finally {
        connection.rollback();
        connection.setReadOnly(false);
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new StoreException("Snapshot read failed: " + e.getMessage(), e);
    }
  }

  private static void forEachRow(Connection connection, String query, RowConsumer consumer) throws StoreException {
    try {
      requireOneStatement(connection, query);
      try (Statement statement = connection.createStatement()) {
        statement.setFetchSize(SNAPSHOT_FETCH_ROWS);
        statement.setQueryTimeout(SNAPSHOT_QUERY_TIMEOUT_SECONDS);
        try (ResultSet rows = statement.executeQuery(query)) {
          int columns = rows.getMetaData().getColumnCount();
          while (rows.next()) {
            List<String> row = new ArrayList<>(columns);
            for (int c = 1; c <= columns; c++) {
              row.add(rows.getString(c));
            }
            consumer.accept(row);
          }
        }
      }
    } catch (SQLException e) {
      throw new StoreException("Query failed: " + e.getMessage() + " (" + query + ")", e);
    }
  }

  /**
   * The driver sends "a; b" as two statements: a COMMIT first would end the read-only transaction and let the rest
   * write, so only one statement is accepted.
   */
  private static void requireOneStatement(Connection connection, String query) throws SQLException, StoreException {
    boolean standardStrings = connection.unwrap(BaseConnection.class).getStandardConformingStrings();
    if (Parser.parseJdbcSql(query, standardStrings, false, true, false, false).size() != 1) {
      throw new StoreException("An administrative query must be exactly one statement");
    }
  }
}
