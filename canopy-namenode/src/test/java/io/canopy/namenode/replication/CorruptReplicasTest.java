package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.CorruptReason;
import io.canopy.metadata.entity.Replica;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HDFS's rules for when corrupt replicas may be deleted (BlockManager.markBlockAsCorrupt's three cases). */
class CorruptReplicasTest {
  private static Replica corrupt(String storage, CorruptReason reason) {
    return new Replica(20_001, 1_001, storage).markedCorrupt(reason, 1_001);
  }

  private static final Replica REPORTED_A = corrupt("DS-A", CorruptReason.CORRUPTION_REPORTED);
  private static final Replica REPORTED_B = corrupt("DS-B", CorruptReason.CORRUPTION_REPORTED);
  private static final Replica SHORT = corrupt("DS-C", CorruptReason.SIZE_MISMATCH);
  private static final Replica STALE = corrupt("DS-D", CorruptReason.GENSTAMP_MISMATCH);

  @Test
  void theLastCopiesAreNeverDeletedForBeingCorrupt() {
    assertEquals(List.of(), CorruptReplicas.deletable(0, List.of(SHORT), 1, 1), "the only replica stays");
    assertEquals(List.of(), CorruptReplicas.deletable(0, List.of(REPORTED_A, SHORT, STALE), 3, 1),
        "no good replica: every corrupt one stays");
  }

  @Test
  void corruptReplicasWaitUntilTheGoodOnesReachTheReplication() {
    assertEquals(List.of(), CorruptReplicas.deletable(2, List.of(REPORTED_A), 3, 1), "2 + 1 is not more than 3");
    assertEquals(List.of(REPORTED_A, REPORTED_B), CorruptReplicas.deletable(3, List.of(REPORTED_A, REPORTED_B), 3, 1),
        "replicated again: all go");
    assertEquals(List.of(SHORT), CorruptReplicas.deletable(1, List.of(SHORT), 1, 1), "setrep 1 with a good one");
  }

  @Test
  void moreReplicasThanNeededOrAStaleCopyFromAWriteGoWhenAGoodOneExists() {
    assertEquals(List.of(REPORTED_A), CorruptReplicas.deletable(2, List.of(REPORTED_A, REPORTED_B), 3, 1),
        "2 good + 2 corrupt > 3: one goes, one stays until the block is copied");
    assertEquals(List.of(STALE), CorruptReplicas.deletable(1, List.of(STALE, SHORT), 3, 1), "left by a write");
    assertEquals(List.of(), CorruptReplicas.deletable(1, List.of(STALE), 3, 2), "below the minimum replication");
  }

  @Test
  void onlyAStaleStampOrAWrongLengthIsHealedByAGoodReport() {
    assertTrue(CorruptReplicas.healedByAGoodReport(CorruptReason.GENSTAMP_MISMATCH));
    assertTrue(CorruptReplicas.healedByAGoodReport(CorruptReason.SIZE_MISMATCH));
    assertFalse(CorruptReplicas.healedByAGoodReport(CorruptReason.CORRUPTION_REPORTED));
    assertThrows(IllegalArgumentException.class,
        () -> CorruptReplicas.deletable(3, List.of(new Replica(20_001, 1_001, "DS-A")), 3, 1));
  }
}
