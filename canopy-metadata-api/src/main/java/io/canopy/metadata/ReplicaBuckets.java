package io.canopy.metadata;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;

/**
 * The hash buckets of a storage's replicas (design 018, step 4), the side a full block report computes. A replica of
 * block {@code b} falls in bucket {@code b & (COUNT - 1)}; a bucket is the XOR of {@link #hash} over its replicas and
 * their count. Every engine keeps the same buckets for the replicas it records
 * ({@link io.canopy.metadata.dal.ReplicaTable#buckets}): a good replica of a COMPLETE block hashes its block's id,
 * stamp and length, any other ({@link #addUnmatchable}) a text no report gives. A bucket whose hash and count agree
 * with a report's therefore holds nothing to reconcile.
 */
public final class ReplicaBuckets {
  /** Buckets per storage: a power of two, fixed for a namespace (the engines' schemas use it too). */
  public static final int COUNT = 16_384;

  /** One bucket: the XOR of its replicas' hashes and how many they are. */
  public record Bucket(long hash, int replicas) {
    Bucket plus(long replicaHash) {
      return new Bucket(hash ^ replicaHash, replicas + 1);
    }
  }

  private final Map<Integer, Bucket> buckets = new HashMap<>();
  private final MessageDigest md5 = md5();

  /** The bucket of a block's replicas. */
  public static int bucketOf(long blockId) {
    return (int) (blockId & (COUNT - 1));
  }

  /** Adds a replica, as reported: the block's id, stamp and length. */
  public void add(long blockId, long generationStamp, long numBytes) {
    long replicaHash = hash(md5, blockId, generationStamp, numBytes);
    buckets.merge(bucketOf(blockId), new Bucket(replicaHash, 1), (was, one) -> was.plus(replicaHash));
  }

  /**
   * Adds a recorded replica no report may match: corrupt, of a block not COMPLETE, or of no block. It hashes
   * "u:blockId", a text no report's replica hashes (those have two colons).
   */
  public void addUnmatchable(long blockId) {
    long replicaHash = hashOf(md5, "u:" + blockId);
    buckets.merge(bucketOf(blockId), new Bucket(replicaHash, 1), (was, one) -> was.plus(replicaHash));
  }

  /** The hash {@link #addUnmatchable} adds for a block. */
  public static long unmatchableHash(long blockId) {
    return hashOf(md5(), "u:" + blockId);
  }

  /** The buckets with at least one replica added. */
  public Map<Integer, Bucket> buckets() {
    return Map.copyOf(buckets);
  }

  /** The hash of one replica: the first 64 bits of the MD5 of "blockId:generationStamp:numBytes", big-endian. */
  public static long hash(long blockId, long generationStamp, long numBytes) {
    return hash(md5(), blockId, generationStamp, numBytes);
  }

  private static long hash(MessageDigest md5, long blockId, long generationStamp, long numBytes) {
    return hashOf(md5, blockId + ":" + generationStamp + ":" + numBytes);
  }

  private static long hashOf(MessageDigest md5, String text) {
    byte[] digest = md5.digest(text.getBytes(StandardCharsets.US_ASCII));
    long hash = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      hash = hash << 8 | (digest[i] & 0xff);
    }
    return hash;
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has MD5", e);
    }
  }
}
