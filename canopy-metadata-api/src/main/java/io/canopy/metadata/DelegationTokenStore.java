package io.canopy.metadata;

import java.util.List;

/**
 * Optional capability (reached with {@link MetadataStore#capability}): HDFS delegation tokens and the master keys
 * they are signed with, shared by every namenode through the database, so a token one namenode issued is verified,
 * renewed or cancelled by any other (design 023). Tokens and keys are opaque bytes here (Hadoop's own
 * serializations); token rows hold the token's password, so an engine keeps them, like the keys, where its read-only
 * operators' role cannot read them. Every call is its own transaction.
 */
public interface DelegationTokenStore {
  /** A stored token: its identifier's bytes and its information's bytes (renew date, password, tracking id). */
  record StoredToken(byte[] identifier, byte[] information) {
    public StoredToken {
      identifier = identifier.clone();
      information = information.clone();
    }

    @Override
    public byte[] identifier() {
      return identifier.clone();
    }

    @Override
    public byte[] information() {
      return information.clone();
    }
  }

  /** The two counters Hadoop's secret manager allocates from: token sequence numbers and master key ids. */
  enum Counter {
    TOKEN_SEQUENCE, KEY_ID
  }

  /** The information of the token with this sequence number and identifier, or null when there is none. */
  byte[] tokenInformation(int sequenceNumber, byte[] identifier) throws StoreException;

  /** At most {@code limit} tokens last written before {@code modifiedBeforeMs} (cleanup candidates). */
  List<StoredToken> tokensModifiedBefore(long modifiedBeforeMs, int limit) throws StoreException;

  /** Adds a token, written at {@code nowMs}; a token already stored with this sequence number and identifier fails. */
  void addToken(int sequenceNumber, byte[] identifier, byte[] information, long nowMs) throws StoreException;

  /** Replaces a stored token's information (a renewal), written at {@code nowMs}; whether the token was there. */
  boolean updateToken(int sequenceNumber, byte[] identifier, byte[] information, long nowMs) throws StoreException;

  /** Deletes a token; whether it was there. */
  boolean deleteToken(int sequenceNumber, byte[] identifier) throws StoreException;

  /** The master key with this id, or null. */
  byte[] masterKey(int keyId) throws StoreException;

  /** Adds a master key, which expires at {@code expiryMs}; a key already stored with this id fails. */
  void addMasterKey(int keyId, byte[] key, long expiryMs) throws StoreException;

  /** Replaces a master key (its expiry changed); whether it was there. */
  boolean updateMasterKey(int keyId, byte[] key, long expiryMs) throws StoreException;

  /** Deletes a master key; whether it was there. */
  boolean deleteMasterKey(int keyId) throws StoreException;

  /**
   * Deletes the master keys that expired before {@code nowMs}, whichever namenode made them (one that stopped never
   * deletes its own); how many. Every token a key signed has expired by the key's expiry.
   */
  int deleteExpiredMasterKeys(long nowMs) throws StoreException;

  /** A counter's value (0 before its first use). */
  int counter(Counter counter) throws StoreException;

  /** Sets a counter's value. */
  void setCounter(Counter counter, int value) throws StoreException;

  /**
   * Adds {@code amount} to a counter atomically (two namenodes never get overlapping ranges) and returns its value
   * before: the caller owns the numbers from that value + 1 to that value + amount.
   */
  int reserve(Counter counter, int amount) throws StoreException;
}
