package io.canopy.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Java side of the replica hash buckets: the values an engine's own computation must reproduce. */
class ReplicaBucketsTest {
  @Test
  void aReplicasHashIsPostgresqlsHashint8extendedOfItsIdSeededByTheHashOfItsStampAndLength() {
    // values PostgreSQL 18 computes: SELECT hashint8extended(1, hashint8extended(2, 3)), ...
    assertEquals(7246826453438914968L, ReplicaBuckets.hash(1, 2, 3));
    assertEquals(7229480114798669931L, ReplicaBuckets.hash(1_073_741_825L, 1001, 134_217_728));
    assertEquals(-4363808450485693641L, ReplicaBuckets.hash(7, -1, -1));
    assertEquals(-1787637386807094521L, ReplicaBuckets.unmatchableHash(7)); // hashint8extended(7, 'u-canopy')
    assertEquals(-9082176226831438310L, ReplicaBuckets.hashInt8(-5, 0)); // no seed: lookup3 without the first mix
    assertEquals(-6211819962198862510L, ReplicaBuckets.hashInt8(-4_611_686_018_427_387_904L, -1));
  }

  @Test
  void noReportedReplicaHashesLikeAnUnmatchableOne() {
    // a datanode listing stamp and length -1 must not make a corrupt or open replica's bucket match
    assertNotEquals(ReplicaBuckets.unmatchableHash(7), ReplicaBuckets.hash(7, -1, -1));
    ReplicaBuckets reported = new ReplicaBuckets();
    reported.add(7, -1, -1);
    ReplicaBuckets recorded = new ReplicaBuckets();
    recorded.addUnmatchable(7);
    assertNotEquals(recorded.buckets(), reported.buckets());
  }

  @Test
  void bucketsAreTheLowBitsOfTheBlockIdNegativeIdsIncluded() {
    assertEquals(7, ReplicaBuckets.bucketOf(7));
    assertEquals(7, ReplicaBuckets.bucketOf(7 + ReplicaBuckets.COUNT));
    assertEquals(ReplicaBuckets.COUNT - 1, ReplicaBuckets.bucketOf(-1));
  }

  @Test
  void aBucketIsTheXorOfItsReplicasHashesAndTheirCount() {
    ReplicaBuckets buckets = new ReplicaBuckets();
    buckets.add(7, 1001, 10);
    buckets.add(7 + ReplicaBuckets.COUNT, 1002, 20);
    buckets.addUnmatchable(8);
    assertEquals(Map.of(
        7, new ReplicaBuckets.Bucket(ReplicaBuckets.hash(7, 1001, 10)
            ^ ReplicaBuckets.hash(7 + ReplicaBuckets.COUNT, 1002, 20), 2),
        8, new ReplicaBuckets.Bucket(ReplicaBuckets.unmatchableHash(8), 1)), buckets.buckets());
  }
}
