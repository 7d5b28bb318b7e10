package io.canopy.metadata.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.canopy.metadata.DelegationTokenStore;
import io.canopy.metadata.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Delegation tokens, their master keys and the two counters in {@code delegation_tokens}, {@code delegation_keys} and
 * {@code delegation_counters} (V19), one auto-committed statement per call.
 */
final class PgDelegationTokens implements DelegationTokenStore {
  private final HikariDataSource pool;

  PgDelegationTokens(HikariDataSource pool) {
    this.pool = pool;
  }

  /** One statement, its parameters bound by {@code bind}, its result read by {@code read}, then committed. */
  private interface Bind {
    void to(PreparedStatement statement) throws SQLException;
  }

  private interface Read<T> {
    T from(PreparedStatement statement) throws SQLException;
  }

  private <T> T run(String what, String sql, Bind bind, Read<T> read, boolean writes) throws StoreException {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      bind.to(statement);
      T answer = read.from(statement);
      connection.commit();
      return answer;
    } catch (SQLException e) {
      throw SqlErrors.classify(what, e, writes);
    }
  }

  private static byte[] firstBytes(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      return rows.next() ? rows.getBytes(1) : null;
    }
  }

  @Override
  public byte[] tokenInformation(int sequenceNumber, byte[] identifier) throws StoreException {
    return run("reading a delegation token",
        "SELECT token_info FROM delegation_tokens WHERE sequence_num = ? AND token_identifier = ?", statement -> {
          statement.setInt(1, sequenceNumber);
          statement.setBytes(2, identifier);
        }, PgDelegationTokens::firstBytes, false);
  }

  @Override
  public List<StoredToken> tokensModifiedBefore(long modifiedBeforeMs, int limit) throws StoreException {
    return run("reading delegation tokens to clean up", "SELECT token_identifier, token_info FROM delegation_tokens "
        + "WHERE modified_ms < ? ORDER BY modified_ms LIMIT ?", statement -> {
          statement.setLong(1, modifiedBeforeMs);
          statement.setInt(2, limit);
        }, statement -> {
          List<StoredToken> tokens = new ArrayList<>();
          try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
              tokens.add(new StoredToken(rows.getBytes(1), rows.getBytes(2)));
            }
          }
          return tokens;
        }, false);
  }

  @Override
  public void addToken(int sequenceNumber, byte[] identifier, byte[] information, long nowMs)
      throws StoreException {
    run("storing a delegation token", "INSERT INTO delegation_tokens (sequence_num, token_identifier, token_info, "
        + "modified_ms) VALUES (?, ?, ?, ?)", statement -> {
          statement.setInt(1, sequenceNumber);
          statement.setBytes(2, identifier);
          statement.setBytes(3, information);
          statement.setLong(4, nowMs);
        }, PreparedStatement::executeUpdate, true);
  }

  @Override
  public boolean updateToken(int sequenceNumber, byte[] identifier, byte[] information, long nowMs)
      throws StoreException {
    return run("renewing a delegation token", "UPDATE delegation_tokens SET token_info = ?, modified_ms = ? "
        + "WHERE sequence_num = ? AND token_identifier = ?", statement -> {
          statement.setBytes(1, information);
          statement.setLong(2, nowMs);
          statement.setInt(3, sequenceNumber);
          statement.setBytes(4, identifier);
        }, statement -> statement.executeUpdate() == 1, true);
  }

  @Override
  public boolean deleteToken(int sequenceNumber, byte[] identifier) throws StoreException {
    return run("deleting a delegation token",
        "DELETE FROM delegation_tokens WHERE sequence_num = ? AND token_identifier = ?", statement -> {
          statement.setInt(1, sequenceNumber);
          statement.setBytes(2, identifier);
        }, statement -> statement.executeUpdate() == 1, true);
  }

  @Override
  public byte[] masterKey(int keyId) throws StoreException {
    return run("reading a delegation key", "SELECT delegation_key FROM delegation_keys WHERE key_id = ?",
        statement -> statement.setInt(1, keyId), PgDelegationTokens::firstBytes, false);
  }

  @Override
  public void addMasterKey(int keyId, byte[] key, long expiryMs) throws StoreException {
    run("storing a delegation key", "INSERT INTO delegation_keys (key_id, delegation_key, expiry_ms) VALUES (?, ?, ?)",
        statement -> {
          statement.setInt(1, keyId);
          statement.setBytes(2, key);
          statement.setLong(3, expiryMs);
        }, PreparedStatement::executeUpdate, true);
  }

  @Override
  public boolean updateMasterKey(int keyId, byte[] key, long expiryMs) throws StoreException {
    return run("updating a delegation key", "UPDATE delegation_keys SET delegation_key = ?, expiry_ms = ? "
        + "WHERE key_id = ?", statement -> {
          statement.setBytes(1, key);
          statement.setLong(2, expiryMs);
          statement.setInt(3, keyId);
        }, statement -> statement.executeUpdate() == 1, true);
  }

  @Override
  public int deleteExpiredMasterKeys(long nowMs) throws StoreException {
    return run("deleting expired delegation keys", "DELETE FROM delegation_keys WHERE expiry_ms < ?",
        statement -> statement.setLong(1, nowMs), PreparedStatement::executeUpdate, true);
  }

  @Override
  public boolean deleteMasterKey(int keyId) throws StoreException {
    return run("deleting a delegation key", "DELETE FROM delegation_keys WHERE key_id = ?",
        statement -> statement.setInt(1, keyId), statement -> statement.executeUpdate() == 1, true);
  }

  @Override
  public int counter(Counter counter) throws StoreException {
    return run("reading a delegation token counter", "SELECT value FROM delegation_counters WHERE name = ?",
        statement -> statement.setString(1, counter.name()), statement -> {
          try (ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getInt(1) : 0;
          }
        }, false);
  }

  @Override
  public void setCounter(Counter counter, int value) throws StoreException {
    run("setting a delegation token counter", "INSERT INTO delegation_counters (name, value) VALUES (?, ?) "
        + "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", statement -> {
          statement.setString(1, counter.name());
          statement.setInt(2, value);
        }, PreparedStatement::executeUpdate, true);
  }

  @Override
  public int reserve(Counter counter, int amount) throws StoreException {
    if (amount <= 0) {
      throw new IllegalArgumentException("a reservation needs a positive amount, got " + amount);
    }
    // one statement: the row lock orders concurrent reservations, so no two get overlapping ranges
    return run("reserving delegation token numbers", "INSERT INTO delegation_counters (name, value) VALUES (?, ?) "
        + "ON CONFLICT (name) DO UPDATE SET value = delegation_counters.value + EXCLUDED.value "
        + "RETURNING value - ?", statement -> {
          statement.setString(1, counter.name());
          statement.setInt(2, amount);
          statement.setInt(3, amount);
        }, statement -> {
          try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getInt(1);
          }
        }, true);
  }
}
