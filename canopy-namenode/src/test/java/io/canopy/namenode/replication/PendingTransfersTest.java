package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PendingTransfersTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final PendingTransfers pending = new PendingTransfers(now::get, 10_000);

  private PendingTransfers.Transfer transfer(long blockId, String source) {
    return new PendingTransfers.Transfer(7, blockId, 100, 1001, source,
        List.of(new PendingTransfers.Target("dn-t", "DS-t")), now.get(), 0);
  }

  @Test
  void aHeartbeatGetsTheOldestTransfersOfItsSourceUpToTheInFlightLimit() {
    pending.startTerm(1);
    pending.schedule(transfer(1, "dn-a"));
    pending.schedule(transfer(2, "dn-b"));
    pending.schedule(transfer(3, "dn-a"));
    pending.schedule(transfer(4, "dn-a"));
    assertEquals(3, pending.load("dn-a"));

    List<PendingTransfers.Transfer> first = pending.takeForHeartbeat("dn-a", 2);
    assertEquals(List.of(1L, 3L), first.stream().map(PendingTransfers.Transfer::blockId).toList());
    assertTrue(first.stream().allMatch(PendingTransfers.Transfer::sent));
    // Two in flight already: nothing more until one is confirmed.
    assertEquals(List.of(), pending.takeForHeartbeat("dn-a", 2));
    pending.forget(1);
    assertEquals(List.of(4L), pending.takeForHeartbeat("dn-a", 2).stream().map(PendingTransfers.Transfer::blockId)
        .toList());
    assertEquals(List.of(2L), pending.takeForHeartbeat("dn-b", 2).stream().map(PendingTransfers.Transfer::blockId)
        .toList());
  }

  @Test
  void transfersExpireAfterTheTimeoutAndANewTermForgetsEverything() {
    pending.startTerm(1);
    pending.schedule(transfer(1, "dn-a"));
    now.addAndGet(5_000);
    pending.schedule(transfer(2, "dn-a"));
    now.addAndGet(5_000);
    assertEquals(List.of(1L), pending.expire().stream().map(PendingTransfers.Transfer::blockId).toList());
    assertNull(pending.of(1));
    assertEquals(1, pending.size());

    pending.startTerm(1);
    assertEquals(1, pending.size(), "the same term keeps what it scheduled");
    pending.startTerm(2);
    assertEquals(0, pending.size());
    assertEquals(2, pending.term());
  }

  @Test
  void schedulingABlockAgainReplacesItsTransfer() {
    pending.schedule(transfer(1, "dn-a"));
    pending.schedule(transfer(1, "dn-b"));
    assertEquals(1, pending.size());
    assertEquals("dn-b", pending.of(1).sourceUuid());
    assertEquals(0, pending.load("dn-a"));
  }

  @Test
  void aTransferNeedsATarget() {
    assertThrows(IllegalArgumentException.class, () -> new PendingTransfers.Transfer(7, 1, 100, 1001, "dn-a",
        List.of(), 0, 0));
  }
}
