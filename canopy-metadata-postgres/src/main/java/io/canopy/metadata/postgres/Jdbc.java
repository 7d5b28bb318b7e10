package io.canopy.metadata.postgres;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Statement helpers bound to one transaction's connection; counts every round trip. */
final class Jdbc {
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  interface RowBinder<R> {
    void bind(PreparedStatement statement, R row) throws SQLException;
  }

  interface Mapper<R> {
    R map(ResultSet row) throws SQLException;
  }

  private final Connection connection;
  private int roundTrips;

  Jdbc(Connection connection) {
    this.connection = connection;
  }

  Connection connection() {
    return connection;
  }

  int roundTrips() {
    return roundTrips;
  }

  void countRoundTrip() {
    roundTrips++;
  }

  static String lockClause(LockMode lock, String table) {
    return switch (lock) {
      case READ_COMMITTED -> "";
      case SHARED -> " FOR SHARE OF " + table;
      case EXCLUSIVE -> " FOR UPDATE OF " + table;
    };
  }

  <R> List<R> query(String sql, Binder binder, Mapper<R> mapper) throws StoreException {
    roundTrips++;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rows = statement.executeQuery()) {
        List<R> result = new ArrayList<>();
        while (rows.next()) {
          result.add(mapper.map(rows));
        }
        return result;
      }
    } catch (SQLException e) {
      throw SqlErrors.classify("query [" + sql + "]", e, false);
    }
  }

  <R> void batch(String sql, List<R> rows, RowBinder<R> binder) throws StoreException {
    if (rows.isEmpty()) {
      return;
    }
    roundTrips++;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (R row : rows) {
        binder.bind(statement, row);
        statement.addBatch();
      }
      statement.executeBatch();
    } catch (SQLException e) {
      SQLException cause = e.getNextException() != null ? e.getNextException() : e;
      throw SqlErrors.classify("batch [" + sql + "]", cause, false);
    }
  }

  static Long[] longs(List<Long> values) {
    return values.toArray(new Long[0]);
  }
}
