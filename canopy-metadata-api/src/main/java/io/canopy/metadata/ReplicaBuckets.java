package io.canopy.metadata;

import java.util.HashMap;
import java.util.Map;

/**
 * The hash buckets of a storage's replicas (design 018, step 4), the side a full block report computes. A replica of
 * block {@code b} falls in bucket {@code b & (COUNT - 1)}; a bucket is the XOR of {@link #hash} over its replicas and
 * their count. Every engine keeps the same buckets for the replicas it records
 * ({@link io.canopy.metadata.dal.ReplicaTable#buckets}): a good replica of a COMPLETE block hashes its block's id,
 * stamp and length, any other ({@link #addUnmatchable}) its block id with a seed no report's replica uses. A bucket
 * whose hash and count agree with a report's therefore holds nothing to reconcile.
 *
 * <p>The 64-bit hash is PostgreSQL's {@code hashint8extended(value, seed)} (Bob Jenkins' lookup3 on the value folded to
 * 32 bits, seeded by 64 bits), written out here so that PostgreSQL computes it in its triggers without any text and
 * the namenode gets the same values; PostgreSQL keeps it stable across versions because hash partitioning stores it.
 * A replica hashes {@code h(blockId, h(generationStamp, numBytes))}.
 */
public final class ReplicaBuckets {
  /** Buckets per storage: a power of two, fixed for a namespace (the engines' schemas use it too). */
  public static final int COUNT = 16_384;
  /** The seed of {@link #unmatchableHash}: "u-canopy" in ASCII. */
  public static final long UNMATCHABLE_SEED = 0x752D_6361_6E6F_7079L;

  /** One bucket: the XOR of its replicas' hashes and how many they are. */
  public record Bucket(long hash, int replicas) {
    Bucket plus(long replicaHash) {
      return new Bucket(hash ^ replicaHash, replicas + 1);
    }
  }

  private final Map<Integer, Bucket> buckets = new HashMap<>();

  /** The bucket of a block's replicas. */
  public static int bucketOf(long blockId) {
    return (int) (blockId & (COUNT - 1));
  }

  /** Adds a replica, as reported: the block's id, stamp and length. */
  public void add(long blockId, long generationStamp, long numBytes) {
    put(blockId, hash(blockId, generationStamp, numBytes));
  }

  /**
   * Adds a recorded replica no report may match: corrupt, of a block not COMPLETE, or of no block. It hashes its block
   * id seeded with {@link #UNMATCHABLE_SEED}, which a reported replica matches only if the hash of its stamp and
   * length were that seed (one chance in 2^64).
   */
  public void addUnmatchable(long blockId) {
    put(blockId, unmatchableHash(blockId));
  }

  private void put(long blockId, long replicaHash) {
    buckets.merge(bucketOf(blockId), new Bucket(replicaHash, 1), (was, one) -> was.plus(replicaHash));
  }

  /** The hash {@link #addUnmatchable} adds for a block. */
  public static long unmatchableHash(long blockId) {
    return hashInt8(blockId, UNMATCHABLE_SEED);
  }

  /** The buckets with at least one replica added. */
  public Map<Integer, Bucket> buckets() {
    return Map.copyOf(buckets);
  }

  /** The hash of one replica: {@code h(blockId, h(generationStamp, numBytes))}. */
  public static long hash(long blockId, long generationStamp, long numBytes) {
    return hashInt8(blockId, hashInt8(generationStamp, numBytes));
  }

  /** PostgreSQL's {@code hashint8extended}: the value folded to 32 bits (negative values with the high half negated). */
  static long hashInt8(long value, long seed) {
    int low = (int) value;
    int high = (int) (value >>> 32);
    return hashInt4(low ^ (value >= 0 ? high : ~high), seed);
  }

  /** PostgreSQL's {@code hash_bytes_uint32_extended}: lookup3's final mix of one 32-bit key, seeded by 64 bits. */
  static long hashInt4(int key, long seed) {
    int a = 0x9e3779b9 + Integer.BYTES + 3_923_095;
    int b = a;
    int c = a;
    if (seed != 0) {
      a += (int) (seed >>> 32);
      b += (int) seed;
      // lookup3's mix
      a -= c;
      a ^= Integer.rotateLeft(c, 4);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 6);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 8);
      b += a;
      a -= c;
      a ^= Integer.rotateLeft(c, 16);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 19);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 4);
      b += a;
    }
    a += key;
    // lookup3's final
    c ^= b;
    c -= Integer.rotateLeft(b, 14);
    a ^= c;
    a -= Integer.rotateLeft(c, 11);
    b ^= a;
    b -= Integer.rotateLeft(a, 25);
    c ^= b;
    c -= Integer.rotateLeft(b, 16);
    a ^= c;
    a -= Integer.rotateLeft(c, 4);
    b ^= a;
    b -= Integer.rotateLeft(a, 14);
    c ^= b;
    c -= Integer.rotateLeft(b, 24);
    return (long) b << 32 | (c & 0xffff_ffffL);
  }
}
