package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.BlockKeys;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Block keys in {@code block_keys} (V18), one auto-committed statement per call. */
final class PgBlockKeys implements BlockKeys {
  private final HikariDataSource pool;

  PgBlockKeys(HikariDataSource pool) {
    this.pool = pool;
  }

  @Override
  public List<Key> all() throws StoreException {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(
            "SELECT key_id, expiry_ms, secret FROM block_keys ORDER BY key_id");
        ResultSet rows = statement.executeQuery()) {
      List<Key> keys = new ArrayList<>();
      while (rows.next()) {
        keys.add(new Key(rows.getInt(1), rows.getLong(2), rows.getBytes(3)));
      }
      connection.commit();
      return keys;
    } catch (SQLException e) {
      throw SqlErrors.classify("reading the block keys", e, false);
    }
  }

  @Override
  public boolean add(Key key) throws StoreException {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(
            "INSERT INTO block_keys (key_id, expiry_ms, secret) VALUES (?, ?, ?) ON CONFLICT (key_id) DO NOTHING")) {
      statement.setInt(1, key.id());
      statement.setLong(2, key.expiryMs());
      statement.setBytes(3, key.secret());
      int added = statement.executeUpdate();
      connection.commit();
      return added == 1;
    } catch (SQLException e) {
      throw SqlErrors.classify("adding a block key", e, true);
    }
  }

  @Override
  public int deleteExpired(long nowMs) throws StoreException {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement("DELETE FROM block_keys WHERE expiry_ms < ?")) {
      statement.setLong(1, nowMs);
      int deleted = statement.executeUpdate();
      connection.commit();
      return deleted;
    } catch (SQLException e) {
      throw SqlErrors.classify("deleting expired block keys", e, true);
    }
  }
}
