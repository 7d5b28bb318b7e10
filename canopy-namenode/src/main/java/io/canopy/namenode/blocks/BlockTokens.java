package io.canopy.namenode.blocks;

import io.canopy.metadata.BlockKeys;
import io.canopy.metadata.StoreException;
import java.io.IOException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.crypto.KeyGenerator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockKey;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS's block access tokens ({@code dfs.block.access.token.enable}) with keys shared through the database: every
 * namenode signs with the same keys and every datanode learns all of them, so a token any namenode issued is honoured
 * by every datanode. Keys live in the store's {@link BlockKeys} (secret from the read-only operators' role).
 *
 * <p>As HDFS's namenode does, a key is used to sign for one key-update interval, and is known to datanodes an interval
 * before: {@link #refresh} (every namenode, every {@code canopy.namenode.block-keys.refresh-ms}) adds the next key when
 * none is waiting, so each key is {@code next} for an interval, then {@code current} for an interval, then kept for
 * another interval and a token lifetime (the slack HDFS gives a retired key: a namenode may sign with it until its
 * next refresh, or longer while the database cannot be read); its expiry is its activation plus two intervals plus a
 * lifetime. Two namenodes adding a next key at
 * once add two: both are exported, either signs. Signing and checking are Hadoop's {@link BlockTokenSecretManager}
 * (worker mode, fed the exported keys); datanodes get the keys when they register and, when they change, in their
 * heartbeats' {@code KeyUpdateCommand}.
 */
public final class BlockTokens {
  private static final Logger LOG = LoggerFactory.getLogger(BlockTokens.class);
  /** HMAC keys as Hadoop's token secret managers make them. */
  private static final String KEY_ALGORITHM = "HmacSHA1";

  private final BlockKeys store;
  private final long intervalMs;
  private final long lifetimeMs;
  private final LongSupplier clockMs;
  private final Random random;
  private final BlockTokenSecretManager secretManager;
  /** {@code dfs.encrypt.data.transfer}: clients get data encryption keys derived from the current block key. */
  private final boolean encryptData;
  private volatile ExportedBlockKeys exported;
  private volatile long version;

  private BlockTokens(BlockKeys store, long intervalMs, long lifetimeMs, String blockPoolId, boolean protobufTokens,
      String encryptionAlgorithm, boolean encryptData, LongSupplier clockMs, Random random) {
    this.store = store;
    this.encryptData = encryptData;
    this.intervalMs = intervalMs;
    this.lifetimeMs = lifetimeMs;
    this.clockMs = clockMs;
    this.random = random;
    this.secretManager = store == null ? null
        : new BlockTokenSecretManager(intervalMs, lifetimeMs, blockPoolId, encryptionAlgorithm, protobufTokens);
    this.exported = ExportedBlockKeys.DUMMY_KEYS;
  }

  /** No block tokens: HDFS's default. */
  public static BlockTokens disabled() {
    return new BlockTokens(null, 0, 0, null, false, null, false, () -> 0, new Random(0));
  }

  /** Whether {@code conf} turns block access tokens on. */
  public static boolean enabledIn(Configuration conf) {
    return conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_DEFAULT);
  }

  /**
   * Block tokens as {@code conf} sets them (HDFS's keys: the key-update interval and the token lifetime in minutes),
   * with keys in {@code store}; loads or makes the keys now, so the namenode signs from its first answer.
   */
  public static BlockTokens start(Configuration conf, BlockKeys store, String blockPoolId, LongSupplier clockMs,
      Random random) throws IOException {
    long intervalMs = TimeUnit.MINUTES.toMillis(conf.getLong(DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_DEFAULT));
    long lifetimeMs = TimeUnit.MINUTES.toMillis(conf.getLong(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_DEFAULT));
    if (intervalMs <= 0 || lifetimeMs <= 0) {
      throw new IOException(DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_KEY + " and "
          + DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_KEY + " must be positive (minutes), got "
          + intervalMs / 60_000 + " and " + lifetimeMs / 60_000);
    }
    boolean protobuf = conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE_DEFAULT);
    BlockTokens tokens = new BlockTokens(store, intervalMs, lifetimeMs, blockPoolId, protobuf,
        conf.getTrimmed(DFSConfigKeys.DFS_DATA_ENCRYPTION_ALGORITHM_KEY),
        conf.getBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_DEFAULT),
        clockMs, random);
    tokens.refresh();
    return tokens;
  }

  public boolean enabled() {
    return store != null;
  }

  /**
   * A key for encrypting a client's data transfer, as HDFS's namenode answers getDataEncryptionKey: derived from the
   * current block key and a random nonce (a datanode derives the same from the key id and the nonce); null unless
   * both block tokens and {@code dfs.encrypt.data.transfer} are on.
   */
  public DataEncryptionKey dataEncryptionKey() {
    return enabled() && encryptData ? secretManager.generateDataEncryptionKey() : null;
  }

  /** Hadoop's secret manager holding the current keys (for the small-file endpoint's handshake); null when off. */
  public BlockTokenSecretManager secretManager() {
    return secretManager;
  }

  /** The keys as datanodes take them ({@code DUMMY_KEYS} when tokens are off). */
  public ExportedBlockKeys exported() {
    return exported;
  }

  /** Changes each time the exported keys do: a datanode told an older version gets the new keys. */
  public long version() {
    return version;
  }

  /** When a key signs: its expiry less two intervals and a lifetime. */
  long activationMs(BlockKeys.Key key) {
    return key.expiryMs() - 2 * intervalMs - lifetimeMs;
  }

  /**
   * Reads the keys, adds the next one (and a current one, on a fresh cluster) when none is waiting, drops expired
   * ones, and hands the result to the secret manager and the datanodes.
   */
  public synchronized void refresh() throws StoreException {
    if (!enabled()) {
      return;
    }
    long now = clockMs.getAsLong();
    List<BlockKeys.Key> keys = store.all();
    boolean current = keys.stream().anyMatch(key -> activationMs(key) <= now && activationMs(key) + intervalMs > now);
    boolean next = keys.stream().anyMatch(key -> activationMs(key) > now);
    if (!current) {
      add(now);
    }
    if (!next) {
      add(now + intervalMs);
    }
    if (!current || !next) {
      store.deleteExpired(now);
      keys = store.all();
    }
    publish(keys, now);
  }

  private void add(long activationMs) throws StoreException {
    byte[] secret;
    try {
      secret = KeyGenerator.getInstance(KEY_ALGORITHM).generateKey().getEncoded();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no " + KEY_ALGORITHM, e);
    }
    for (int attempt = 0; attempt < 10; attempt++) {
      int id = 1 + random.nextInt(Integer.MAX_VALUE - 1);
      if (store.add(new BlockKeys.Key(id, activationMs + 2 * intervalMs + lifetimeMs, secret))) {
        LOG.info("Added block key {}, signing from {}", id, java.time.Instant.ofEpochMilli(activationMs));
        return;
      }
    }
    throw new IllegalStateException("no free block key id after 10 random picks");
  }

  /** The current key (the latest active one) and every unexpired key, exported and given to the secret manager. */
  private void publish(List<BlockKeys.Key> keys, long now) throws StoreException {
    List<BlockKey> all = new ArrayList<>();
    BlockKeys.Key current = null;
    for (BlockKeys.Key key : keys) {
      if (key.expiryMs() <= now) {
        continue;
      }
      all.add(new BlockKey(key.id(), key.expiryMs(), key.secret()));
      if (activationMs(key) <= now && (current == null || activationMs(key) > activationMs(current))) {
        current = key;
      }
    }
    if (current == null) {
      throw new StoreException("no block key to sign with: the keys were removed while in use");
    }
    BlockKey currentKey = new BlockKey(current.id(), current.expiryMs(), current.secret());
    ExportedBlockKeys next = new ExportedBlockKeys(true, intervalMs, lifetimeMs, currentKey,
        all.toArray(new BlockKey[0]));
    if (!sameKeys(exported, next)) {
      try {
        secretManager.addKeys(next);
      } catch (IOException e) {
        throw new StoreException("cannot use the block keys: " + e.getMessage(), e);
      }
      exported = next;
      version++;
    }
  }

  private static boolean sameKeys(ExportedBlockKeys a, ExportedBlockKeys b) {
    if (a.getCurrentKey() == null || a.getCurrentKey().getKeyId() != b.getCurrentKey().getKeyId()
        || a.getAllKeys().length != b.getAllKeys().length) {
      return false;
    }
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (BlockKey key : a.getAllKeys()) {
      ids.add(key.getKeyId());
    }
    for (BlockKey key : b.getAllKeys()) {
      if (!ids.contains(key.getKeyId())) {
        return false;
      }
    }
    return true;
  }

  /** Puts a token for {@code mode} on {@code located}, for its block and its storages, issued to {@code user}. */
  public void sign(LocatedBlock located, BlockTokenIdentifier.AccessMode mode, String user) {
    if (!enabled() || located == null) {
      return;
    }
    located.setBlockToken(secretManager.generateToken(user, located.getBlock(), EnumSet.of(mode),
        located.getStorageTypes(), located.getStorageIDs()));
  }

  /** Signs every located block of {@code blocks} (and its last block) for {@code mode}. */
  public void signAll(org.apache.hadoop.hdfs.protocol.LocatedBlocks blocks, BlockTokenIdentifier.AccessMode mode,
      String user) {
    if (!enabled() || blocks == null) {
      return;
    }
    for (LocatedBlock located : blocks.getLocatedBlocks()) {
      sign(located, mode, user);
    }
    LocatedBlock last = blocks.getLastLocatedBlock();
    if (last != null && last.getBlockToken().getIdentifier().length == 0) {
      sign(last, mode, user);
    }
  }

  /** Refuses {@code token} unless it was signed with a known key for reading {@code block}. */
  public void checkRead(Token<BlockTokenIdentifier> token, ExtendedBlock block) throws SecretManager.InvalidToken {
    if (enabled()) {
      secretManager.checkAccess(token, null, block, BlockTokenIdentifier.AccessMode.READ);
    }
  }
}
