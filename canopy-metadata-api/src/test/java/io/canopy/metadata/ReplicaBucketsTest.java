package io.canopy.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Java side of the replica hash buckets: the values an engine's own computation must reproduce. */
class ReplicaBucketsTest {
  @Test
  void aReplicasHashIsTheFirst64BitsOfTheMd5OfItsDecimalText() {
    // md5("1:2:3") starts 7b 6e ..., read big-endian as a signed long (values from Python's hashlib)
    assertEquals(8894092033781300736L, ReplicaBuckets.hash(1, 2, 3));
    assertEquals(-3733907878835971039L, ReplicaBuckets.hash(1_073_741_825L, 1001, 134_217_728));
    assertEquals(-6258045198404943281L, ReplicaBuckets.unmatchableHash(7)); // md5("u:7")
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
