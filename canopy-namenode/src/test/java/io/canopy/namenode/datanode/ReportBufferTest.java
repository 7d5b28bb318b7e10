package io.canopy.namenode.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportBufferTest {
  private static ReportBuffer.Entry entry(long atMs, long blockId) {
    return new ReportBuffer.Entry(atMs, "DS-1",
        List.of(new ReportedReplica(blockId, 1001, 10, ReportedReplica.Kind.FINALIZED)));
  }

  @Test
  void aReplayGetsThePeriodInArrivalOrderOnce() {
    ReportBuffer buffer = new ReportBuffer();
    buffer.add("dn", entry(1_000, 1), 5_000);
    buffer.add("dn", entry(2_000, 2), 5_000);
    buffer.add("dn", entry(7_000, 3), 5_000); // 1,000 is now older than the period
    ReportBuffer.Replay replay = buffer.take("dn", 2_000);
    assertEquals(List.of(2L, 3L), replay.entries().stream().map(e -> e.replicas().get(0).blockId()).toList());
    assertFalse(replay.incomplete(), "an entry older than the replay's start is no loss");
    assertEquals(0, buffer.size("dn"));
    assertTrue(buffer.take("dn", 2_000).entries().isEmpty(), "a replay takes its entries");
    assertTrue(buffer.take("other", 2_000).entries().isEmpty());
  }

  @Test
  void entriesDroppedInsideThePeriodMakeTheReplayIncomplete() {
    ReportBuffer buffer = new ReportBuffer(2);
    buffer.add("dn", entry(1_000, 1), 5_000);
    buffer.add("dn", entry(1_001, 2), 5_000);
    buffer.add("dn", entry(1_002, 3), 5_000);
    assertEquals(2, buffer.size("dn"));
    ReportBuffer.Replay replay = buffer.take("dn", 1_000);
    assertEquals(2, replay.entries().size());
    assertTrue(replay.incomplete(), "the bound dropped an entry the old applier may not have applied");
    assertFalse(buffer.take("dn", 1_000).incomplete(), "a replay starts the count again");
  }

  @Test
  void aBufferHoldsAtLeastOneReplica() {
    assertThrows(IllegalArgumentException.class, () -> new ReportBuffer(0));
  }

  @Test
  void aReplayReachingFurtherBackThanWhatWasKeptIsIncomplete() {
    ReportBuffer buffer = new ReportBuffer();
    buffer.add("dn", entry(1_000, 1), 5_000);
    buffer.add("dn", entry(9_000, 2), 5_000); // 1,000 dropped by age
    ReportBuffer.Replay late = buffer.take("dn", 500);
    assertEquals(1, late.entries().size());
    assertTrue(late.incomplete(), "the replay needed the entry of 1,000, which is gone");
  }
}
