package io.canopy.namenode.blocks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReplicaArrivalsTest {
  private final ReplicaArrivals arrivals = new ReplicaArrivals();

  @Test
  void aReportAppliedAfterTheRegistrationWakesTheWaiter() throws InterruptedException {
    try (ReplicaArrivals.Expectation expectation = arrivals.expect(7)) {
      arrivals.applied(7);
      assertTrue(expectation.await(0), "a report applied after expect() is seen even before the wait starts");
    }
    assertEquals(0, arrivals.waitingFiles());
  }

  @Test
  void reportsOfOtherFilesOrFromBeforeTheRegistrationDoNotCount() throws InterruptedException {
    arrivals.applied(7);
    try (ReplicaArrivals.Expectation expectation = arrivals.expect(7)) {
      arrivals.applied(8);
      assertFalse(expectation.await(1));
      assertEquals(1, arrivals.waitingFiles());
    }
    assertEquals(0, arrivals.waitingFiles(), "a waiter that gives up leaves nothing behind");
  }

  @Test
  void aSignalledWaiterRegistersAfreshForTheNextReport() throws InterruptedException {
    ReplicaArrivals.Expectation first = arrivals.expect(7);
    arrivals.applied(7);
    assertTrue(first.await(0));
    first.close();
    try (ReplicaArrivals.Expectation second = arrivals.expect(7)) {
      assertFalse(second.await(1), "the first report does not wake the second registration");
      arrivals.applied(7);
      assertTrue(second.await(0));
    }
  }

  @Test
  void closingAnOldRegistrationKeepsANewerOne() throws InterruptedException {
    ReplicaArrivals.Expectation old = arrivals.expect(7);
    arrivals.applied(7);
    try (ReplicaArrivals.Expectation newer = arrivals.expect(7)) {
      old.close();
      assertEquals(1, arrivals.waitingFiles());
      arrivals.applied(7);
      assertTrue(newer.await(0));
    }
  }

  @Test
  void onlyRealFileIdsAreWaitedFor() {
    assertThrows(IllegalArgumentException.class, () -> arrivals.expect(0));
  }

  @Test
  void remembersRecentlyReportedBlocksUntilAnotherTakesTheirSlot() {
    long block = 1_073_741_825L;
    assertFalse(arrivals.finalizedReportedRecently(block), "nothing reported yet");
    arrivals.finalizedReported(block);
    assertTrue(arrivals.finalizedReportedRecently(block));
    assertFalse(arrivals.finalizedReportedRecently(block + 1), "its neighbour was not reported");
    assertFalse(arrivals.finalizedReportedRecently(block - ReplicaArrivals.RECENT_BLOCKS), "same slot, other block");
    arrivals.finalizedReported(block + ReplicaArrivals.RECENT_BLOCKS);
    assertFalse(arrivals.finalizedReportedRecently(block), "the slot went to a later block: no longer known");
    assertTrue(arrivals.finalizedReportedRecently(block + ReplicaArrivals.RECENT_BLOCKS));
    arrivals.finalizedReported(-5);
    assertTrue(arrivals.finalizedReportedRecently(-5), "negative (legacy) block ids too");
    assertFalse(arrivals.finalizedReportedRecently(Long.MIN_VALUE), "the empty marker is no block");
  }

  @Test
  void aReportAppliedElsewhereWakesTheWaiterOfTheLastBlockAndIsRemembered() throws InterruptedException {
    try (ReplicaArrivals.Expectation expectation = arrivals.expect(7, 9001)) {
      arrivals.reportedElsewhere(9002);
      assertFalse(expectation.await(1), "another block's report does not wake it");
      arrivals.reportedElsewhere(9001);
      assertTrue(expectation.await(0));
    }
    assertTrue(arrivals.reportedElsewhereRecently(9001));
    assertFalse(arrivals.finalizedReportedRecently(9001), "applied elsewhere is not applied here");
    assertEquals(0, arrivals.waitingFiles(), "nothing left behind");
  }

  @Test
  void aWaiterByBlockIsStillWokenByTheFilesOwnReport() throws InterruptedException {
    try (ReplicaArrivals.Expectation expectation = arrivals.expect(7, 9001)) {
      arrivals.applied(7);
      assertTrue(expectation.await(0));
    }
    try (ReplicaArrivals.Expectation again = arrivals.expect(7, 9001)) {
      assertFalse(again.await(1), "a fresh registration waits for the next report");
      arrivals.reportedElsewhere(9001);
      assertTrue(again.await(0));
    }
    assertEquals(0, arrivals.waitingFiles());
  }
}
