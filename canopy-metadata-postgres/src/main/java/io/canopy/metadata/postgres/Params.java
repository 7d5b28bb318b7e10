package io.canopy.metadata.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The parameters of one statement inside a pipelined multi-statement: indexes are the statement's own (from 1),
 * shifted by the parameters of the statements before it.
 */
final class Params {
  private final PreparedStatement statement;
  private final int offset;

  Params(PreparedStatement statement, int offset) {
    this.statement = statement;
    this.offset = offset;
  }

  Connection getConnection() throws SQLException {
    return statement.getConnection();
  }

  void setLong(int index, long value) throws SQLException {
    statement.setLong(offset + index, value);
  }

  void setInt(int index, int value) throws SQLException {
    statement.setInt(offset + index, value);
  }

  void setShort(int index, short value) throws SQLException {
    statement.setShort(offset + index, value);
  }

  void setBoolean(int index, boolean value) throws SQLException {
    statement.setBoolean(offset + index, value);
  }

  void setString(int index, String value) throws SQLException {
    statement.setString(offset + index, value);
  }

  void setBytes(int index, byte[] value) throws SQLException {
    statement.setBytes(offset + index, value);
  }

  void setArray(int index, Array value) throws SQLException {
    statement.setArray(offset + index, value);
  }
}
