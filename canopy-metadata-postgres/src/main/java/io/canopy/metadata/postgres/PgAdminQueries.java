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

/** Operators' SQL ({@code canopy sql}): one statement, in a read-only transaction, with a timeout. */
final class PgAdminQueries implements AdminQueries {
  private static final int ADMIN_QUERY_TIMEOUT_SECONDS = 30;

  private final HikariDataSource pool;

  PgAdminQueries(HikariDataSource pool) {
    this.pool = pool;
  }

  @Override
  public QueryResult adminQuery(String query, int maxRows) throws StoreException {
    try (Connection connection = pool.getConnection()) {
      // The driver sends "a; b" as two statements: a COMMIT first would end the read-only transaction and let
      // the rest write, so only one statement is accepted.
      boolean standardStrings = connection.unwrap(BaseConnection.class).getStandardConformingStrings();
      if (Parser.parseJdbcSql(query, standardStrings, false, true, false, false).size() != 1) {
        throw new StoreException("An administrative query must be exactly one statement");
      }
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
}
