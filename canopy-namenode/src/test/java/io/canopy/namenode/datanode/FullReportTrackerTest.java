package io.canopy.namenode.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The leader's record of the full reports of its term, and when it asks a datanode for one. */
class FullReportTrackerTest {
  private final AtomicLong clock = new AtomicLong(1_000);
  private final FullReportTracker tracker = new FullReportTracker(clock::get, 5_000);

  @Test
  void aDatanodeIsAskedOnceUntilItReportsOrTheIntervalPasses() {
    assertTrue(tracker.askForReport(1, "dn-1"));
    assertFalse(tracker.askForReport(1, "dn-1"), "asked already");
    clock.addAndGet(5_000);
    assertTrue(tracker.askForReport(1, "dn-1"), "no report came: asked again");
    tracker.reported(1, "dn-1", List.of("DS-1"), 7, 0, 1);
    clock.addAndGet(60_000);
    assertFalse(tracker.askForReport(1, "dn-1"), "it reported in this term");
  }

  @Test
  void aDatanodeThatRegisteredIsNotAskedWhileItsOwnReportIsOnItsWay() {
    tracker.registered(1, "dn-1");
    assertFalse(tracker.askForReport(1, "dn-1"));
    clock.addAndGet(5_000);
    assertTrue(tracker.askForReport(1, "dn-1"), "its report never came");
  }

  @Test
  void aNewTermForgetsTheReportsOfTheOldOne() {
    tracker.reported(1, "dn-1", List.of("DS-1", "DS-2"), 7, 0, 1);
    tracker.reported(1, "dn-2", List.of("DS-3"), 8, 0, 1);
    assertTrue(tracker.allReported(1, List.of("dn-1", "dn-2")));
    assertEquals(Set.of("DS-1", "DS-2", "DS-3"), tracker.reportedStorages(1));
    assertTrue(tracker.hasReported(1, "dn-2"));

    assertTrue(tracker.askForReport(2, "dn-1"), "leading again (a new term): nothing reported to it yet");
    assertFalse(tracker.allReported(2, List.of("dn-1")));
    assertFalse(tracker.allReported(1, List.of("dn-1")), "the old term is over");
    assertEquals(Set.of(), tracker.reportedStorages(2));
    tracker.reported(1, "dn-2", List.of("DS-3"), 9, 0, 1);
    assertFalse(tracker.hasReported(2, "dn-2"), "a report processed under the old term does not count");
    assertFalse(tracker.askForReport(0, "dn-3"), "a namenode that does not lead asks nothing");
  }

  @Test
  void aReportSplitPerStorageCountsOnceEveryPartArrived() {
    tracker.reported(1, "dn-1", List.of("DS-1"), 42, 0, 2);
    assertFalse(tracker.hasReported(1, "dn-1"), "one storage of two reported");
    assertEquals(Set.of("DS-1"), tracker.reportedStorages(1), "its blocks count for safe mode already");
    tracker.reported(1, "dn-1", List.of("DS-1"), 42, 0, 2);
    assertFalse(tracker.hasReported(1, "dn-1"), "the same part twice is still one part");
    tracker.reported(1, "dn-1", List.of("DS-2"), 43, 1, 2);
    assertFalse(tracker.hasReported(1, "dn-1"), "a part of another report does not complete this one");
    tracker.reported(1, "dn-1", List.of("DS-2"), 42, 1, 2);
    assertTrue(tracker.hasReported(1, "dn-1"));
    assertFalse(tracker.askForReport(1, "dn-1"));
  }
}
