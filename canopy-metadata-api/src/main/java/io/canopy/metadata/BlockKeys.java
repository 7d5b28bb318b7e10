package io.canopy.metadata;

import java.util.List;

/**
 * Optional capability (reached with {@link MetadataStore#capability}): the secret keys block access tokens are signed
 * with, shared by every namenode through the database so a token any namenode issues is verified by every datanode
 * (HDFS's {@code dfs.block.access.token.enable}). Keys are secrets: an engine keeps them where its read-only operators'
 * role cannot read them. Keys are only added and expired, never changed, so no transaction spans two calls.
 */
public interface BlockKeys {
  /**
   * One key: its id (unique, positive), the instant it expires (wall-clock milliseconds), and its secret bytes (the
   * HMAC key, as {@code SecretKey.getEncoded()}).
   */
  record Key(int id, long expiryMs, byte[] secret) {
    public Key {
      if (id <= 0 || secret == null || secret.length == 0) {
        throw new IllegalArgumentException("a block key needs a positive id and a secret, got id " + id);
      }
      secret = secret.clone();
    }

    @Override
    public byte[] secret() {
      return secret.clone();
    }
  }

  /** Every key, expired or not. */
  List<Key> all() throws StoreException;

  /** Adds {@code key} unless a key with its id exists; whether it was added. */
  boolean add(Key key) throws StoreException;

  /** Deletes the keys that expired before {@code nowMs}; how many. */
  int deleteExpired(long nowMs) throws StoreException;
}
