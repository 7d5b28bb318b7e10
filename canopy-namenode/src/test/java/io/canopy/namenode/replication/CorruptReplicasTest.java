package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.CorruptReason;
import org.junit.jupiter.api.Test;

/** HDFS's rules for when a corrupt replica may be deleted (BlockManager.markBlockAsCorrupt's three cases). */
class CorruptReplicasTest {
  @Test
  void theLastCopiesAreNeverDeletedForBeingCorrupt() {
    for (CorruptReason reason : new CorruptReason[] {CorruptReason.CORRUPTION_REPORTED, CorruptReason.SIZE_MISMATCH,
        CorruptReason.GENSTAMP_MISMATCH}) {
      assertFalse(CorruptReplicas.deleteAtOnce(0, 1, 1, 1, reason), reason + ": the only replica stays");
      assertFalse(CorruptReplicas.deleteAtOnce(0, 3, 3, 1, reason), reason + ": no good replica, all stay");
    }
  }

  @Test
  void aCorruptReplicaWaitsUntilTheGoodOnesReachTheReplication() {
    // 2 good of 3, 1 corrupt: 2 + 1 is not more than 3, it stays until the block is copied
    assertFalse(CorruptReplicas.deleteAtOnce(2, 1, 3, 1, CorruptReason.CORRUPTION_REPORTED));
    assertFalse(CorruptReplicas.deleteAtOnce(1, 2, 3, 1, CorruptReason.SIZE_MISMATCH));
    assertTrue(CorruptReplicas.deleteAtOnce(3, 1, 3, 1, CorruptReason.CORRUPTION_REPORTED), "enough good ones");
    assertTrue(CorruptReplicas.replicatedAgain(3, 3));
    assertFalse(CorruptReplicas.replicatedAgain(2, 3));
  }

  @Test
  void moreReplicasThanNeededOrAStaleCopyFromAWriteGoAtOnceWhenAGoodOneExists() {
    assertTrue(CorruptReplicas.deleteAtOnce(2, 2, 3, 1, CorruptReason.CORRUPTION_REPORTED), "2 + 2 > 3");
    assertFalse(CorruptReplicas.deleteAtOnce(0, 4, 3, 1, CorruptReason.CORRUPTION_REPORTED), "no good one");
    assertTrue(CorruptReplicas.deleteAtOnce(1, 1, 3, 1, CorruptReason.GENSTAMP_MISMATCH), "left by a write");
    assertFalse(CorruptReplicas.deleteAtOnce(1, 1, 3, 2, CorruptReason.GENSTAMP_MISMATCH), "below min replication");
    assertFalse(CorruptReplicas.deleteAtOnce(1, 1, 3, 1, CorruptReason.SIZE_MISMATCH));
  }

  @Test
  void onlyAStaleStampOrAWrongLengthIsHealedByAGoodReport() {
    assertTrue(CorruptReplicas.healedByAGoodReport(CorruptReason.GENSTAMP_MISMATCH));
    assertTrue(CorruptReplicas.healedByAGoodReport(CorruptReason.SIZE_MISMATCH));
    assertFalse(CorruptReplicas.healedByAGoodReport(CorruptReason.CORRUPTION_REPORTED));
    assertThrows(IllegalArgumentException.class,
        () -> CorruptReplicas.deleteAtOnce(3, 1, 3, 1, CorruptReason.NONE));
  }
}
