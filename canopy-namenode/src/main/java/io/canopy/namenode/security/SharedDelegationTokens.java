package io.canopy.namenode.security;

import io.canopy.metadata.DelegationTokenStore;
import io.canopy.metadata.DelegationTokenStore.Counter;
import io.canopy.metadata.StoreException;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.token.delegation.DelegationKey;
import org.apache.hadoop.security.token.delegation.SQLDelegationTokenSecretManager;
import org.apache.hadoop.security.token.delegation.web.DelegationTokenManager;
import org.apache.hadoop.util.Time;

/**
 * HDFS delegation tokens kept in the database (design 023): Hadoop's own SQL-backed secret manager (the one HDFS's
 * router-based federation uses), its storage calls going to the store's {@link DelegationTokenStore}. Every namenode
 * runs one; a token issued by any of them is found by the others in the database (cached for
 * {@link #CACHE_MS_KEY}), master keys roll on each namenode every key-update interval and are found by id the same
 * way, sequence numbers and key ids come from counters reserved atomically in the database. HDFS's settings give the
 * intervals: {@code dfs.namenode.delegation.key.update-interval}, {@code dfs.namenode.delegation.token.renew-interval}
 * and {@code dfs.namenode.delegation.token.max-lifetime}.
 */
public final class SharedDelegationTokens extends SQLDelegationTokenSecretManager<DelegationTokenIdentifier> {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SharedDelegationTokens.class);
  /** How long a namenode trusts the token rows it read (a cancellation elsewhere reaches it within this). */
  public static final String CACHE_MS_KEY = "canopy.namenode.delegation.token.cache-ms";
  public static final long CACHE_MS_DEFAULT = 1_000;
  /** How often expired tokens are looked for and deleted (HDFS: hourly). */
  public static final String REMOVAL_SCAN_MS_KEY = "canopy.namenode.delegation.token.removal-scan-ms";
  public static final long REMOVAL_SCAN_MS_DEFAULT = TimeUnit.HOURS.toMillis(1);

  private final DelegationTokenStore store;

  public SharedDelegationTokens(Configuration conf, DelegationTokenStore store) {
    super(managerSettings(conf));
    this.store = store;
  }

  /** HDFS's interval settings (milliseconds) in the keys of Hadoop's SQL manager (seconds, at least one). */
  static Configuration managerSettings(Configuration conf) {
    Configuration settings = new Configuration(false);
    settings.setLong(DelegationTokenManager.UPDATE_INTERVAL, seconds(conf.getLong(
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_DEFAULT)));
    settings.setLong(DelegationTokenManager.MAX_LIFETIME, seconds(conf.getLong(
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY,
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_DEFAULT)));
    settings.setLong(DelegationTokenManager.RENEW_INTERVAL, seconds(conf.getLong(
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_DEFAULT)));
    settings.setLong(DelegationTokenManager.REMOVAL_SCAN_INTERVAL,
        seconds(conf.getLong(REMOVAL_SCAN_MS_KEY, REMOVAL_SCAN_MS_DEFAULT)));
    settings.setLong(SQL_DTSM_TOKEN_LOADING_CACHE_EXPIRATION, Math.max(1, conf.getLong(CACHE_MS_KEY,
        CACHE_MS_DEFAULT)));
    return settings;
  }

  private static long seconds(long ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("delegation token intervals must be positive, got " + ms + " ms");
    }
    return Math.max(1, TimeUnit.MILLISECONDS.toSeconds(ms));
  }

  @Override
  public DelegationTokenIdentifier createIdentifier() {
    return new DelegationTokenIdentifier();
  }

  /** A call of the store, whose failure Hadoop's class expects as an SQLException. */
  private interface StoreCall<T> {
    T call() throws StoreException;
  }

  private interface StoreAction {
    void run() throws StoreException;
  }

  private static <T> T sql(StoreCall<T> call) throws SQLException {
    try {
      return call.call();
    } catch (StoreException e) {
      throw new SQLException(e.getMessage(), e);
    }
  }

  private static void sql(StoreAction action) throws SQLException {
    sql(() -> {
      action.run();
      return null;
    });
  }

  @Override
  protected byte[] selectTokenInfo(int sequenceNum, byte[] tokenIdentifier) throws SQLException {
    return sql(() -> store.tokenInformation(sequenceNum, tokenIdentifier));
  }

  @Override
  protected Map<byte[], byte[]> selectStaleTokenInfos(long maxModifiedTime, int maxResults) throws SQLException {
    Map<byte[], byte[]> tokens = new LinkedHashMap<>();
    for (DelegationTokenStore.StoredToken token : sql(() -> store.tokensModifiedBefore(maxModifiedTime,
        maxResults))) {
      tokens.put(token.identifier(), token.information());
    }
    return tokens;
  }

  @Override
  protected void insertToken(int sequenceNum, byte[] tokenIdentifier, byte[] tokenInfo) throws SQLException {
    sql(() -> store.addToken(sequenceNum, tokenIdentifier, tokenInfo, Time.now()));
  }

  @Override
  protected void updateToken(int sequenceNum, byte[] tokenIdentifier, byte[] tokenInfo) throws SQLException {
    if (!sql(() -> store.updateToken(sequenceNum, tokenIdentifier, tokenInfo, Time.now()))) {
      throw new SQLException("delegation token " + sequenceNum + " is no longer stored (cancelled or expired)");
    }
  }

  @Override
  protected void deleteToken(int sequenceNum, byte[] tokenIdentifier) throws SQLException {
    sql(() -> store.deleteToken(sequenceNum, tokenIdentifier));
  }

  @Override
  protected byte[] selectDelegationKey(int keyId) throws SQLException {
    return sql(() -> store.masterKey(keyId));
  }

  @Override
  protected void insertDelegationKey(int keyId, byte[] delegationKey) throws SQLException {
    long expiry = expiry(delegationKey);
    sql(() -> store.addMasterKey(keyId, delegationKey, expiry));
  }

  @Override
  protected void updateDelegationKey(int keyId, byte[] delegationKey) throws SQLException {
    long expiry = expiry(delegationKey);
    sql(() -> store.updateMasterKey(keyId, delegationKey, expiry));
  }

  /** The expiry inside a serialized {@link DelegationKey}. */
  private static long expiry(byte[] delegationKey) throws SQLException {
    DelegationKey key = new DelegationKey();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(delegationKey))) {
      key.readFields(in);
    } catch (IOException e) {
      throw new SQLException("unreadable delegation key", e);
    }
    return key.getExpiryDate();
  }

  /**
   * Stores a new token, failing the issue when the database did not take it: Hadoop's class would log the failure
   * and hand out a token no namenode accepts.
   */
  @Override
  protected void storeToken(DelegationTokenIdentifier ident, DelegationTokenInformation tokenInfo)
      throws IOException {
    try {
      super.storeToken(ident, tokenInfo);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes a cancelled token's row, failing the cancel when the database did not: Hadoop's class would log the
   * failure and answer success while every namenode still accepts the token.
   */
  @Override
  protected void removeStoredToken(DelegationTokenIdentifier ident) throws IOException {
    try {
      deleteToken(ident.getSequenceNumber(), ident.getBytes());
    } catch (SQLException e) {
      throw new IOException("cannot delete delegation token " + ident.getSequenceNumber() + " from the database: "
          + e.getMessage(), e);
    }
  }

  /** Rolls this namenode's key as Hadoop does, then deletes every expired key, a stopped namenode's too. */
  @Override
  protected void rollMasterKey() throws IOException {
    super.rollMasterKey();
    try {
      sql(() -> store.deleteExpiredMasterKeys(Time.now()));
    } catch (SQLException e) {
      LOG.warn("Cannot delete expired delegation keys (the next roll tries again): {}", e.getMessage());
    }
  }

  @Override
  protected void deleteDelegationKey(int keyId) throws SQLException {
    sql(() -> store.deleteMasterKey(keyId));
  }

  @Override
  protected int selectSequenceNum() throws SQLException {
    return sql(() -> store.counter(Counter.TOKEN_SEQUENCE));
  }

  @Override
  protected void updateSequenceNum(int value) throws SQLException {
    sql(() -> store.setCounter(Counter.TOKEN_SEQUENCE, value));
  }

  @Override
  protected int incrementSequenceNum(int amount) throws SQLException {
    return sql(() -> store.reserve(Counter.TOKEN_SEQUENCE, amount));
  }

  @Override
  protected int selectKeyId() throws SQLException {
    return sql(() -> store.counter(Counter.KEY_ID));
  }

  @Override
  protected void updateKeyId(int value) throws SQLException {
    sql(() -> store.setCounter(Counter.KEY_ID, value));
  }

  @Override
  protected int incrementKeyId(int amount) throws SQLException {
    return sql(() -> store.reserve(Counter.KEY_ID, amount));
  }
}
