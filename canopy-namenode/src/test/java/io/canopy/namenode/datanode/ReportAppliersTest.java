package io.canopy.namenode.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.membership.MembershipView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReportAppliersTest {
  private static final long HANDOVER_MS = 10_000;
  private static final long STALE_MS = 4_000;

  /** A view whose members and own id the test sets. */
  private static final class View implements MembershipView {
    List<Long> ids = new ArrayList<>();
    long self;

    View(long self, Long... ids) {
      this.self = self;
      this.ids = new ArrayList<>(List.of(ids));
    }

    @Override
    public List<NamenodeRecord> liveNamenodes() {
      return ids.stream().map(id -> new NamenodeRecord(id, 1, "127.0.0.1:" + (9000 + id), "", 0, 0, 0)).toList();
    }

    @Override
    public long leaderId() {
      return ids.isEmpty() ? 0 : ids.get(0);
    }

    @Override
    public long selfId() {
      return self;
    }
  }

  private final AtomicLong clock = new AtomicLong(1_000_000);

  private ReportAppliers appliers(View view) {
    return new ReportAppliers(view, clock::get, () -> HANDOVER_MS, STALE_MS);
  }

  private static List<String> datanodes(int count) {
    List<String> uuids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      uuids.add(new java.util.UUID(0x5eed, i).toString());
    }
    return uuids;
  }

  @Test
  void everyNamenodeOfAnAgreedViewNamesTheSameSingleApplier() {
    List<ReportAppliers> group = List.of(appliers(new View(3, 3L, 7L, 11L)), appliers(new View(7, 3L, 7L, 11L)),
        appliers(new View(11, 3L, 7L, 11L)));
    Map<Long, Integer> perNamenode = new HashMap<>();
    for (String uuid : datanodes(300)) {
      long applier = group.get(0).applierOf(uuid);
      int applying = 0;
      for (ReportAppliers member : group) {
        assertEquals(applier, member.applierOf(uuid));
        applying += member.route(uuid, false).apply() ? 1 : 0;
      }
      assertEquals(1, applying, "exactly one namenode applies datanode " + uuid);
      perNamenode.merge(applier, 1, Integer::sum);
    }
    // spread: each of 3 namenodes gets a fair share of 300 datanodes
    perNamenode.values().forEach(count -> assertTrue(count > 60 && count < 140, "share " + perNamenode));
  }

  @Test
  void aNamenodeLeavingMovesOnlyItsDatanodes() {
    ReportAppliers three = appliers(new View(3, 3L, 7L, 11L));
    ReportAppliers two = appliers(new View(3, 3L, 11L));
    for (String uuid : datanodes(200)) {
      long before = three.applierOf(uuid);
      if (before != 7) {
        assertEquals(before, two.applierOf(uuid), "datanode " + uuid + " of a remaining namenode stays");
      }
    }
  }

  @Test
  void aNamenodeAloneOrOutsideTheGroupAppliesEverything() {
    assertTrue(appliers(new View(5, 5L)).route("dn", false).apply());
    assertTrue(appliers(new View(0)).route("dn", false).apply(), "not joined yet");
  }

  /** A datanode whose applier is {@code first} among {@code before} and {@code second} among {@code after}. */
  private String datanodeMovingFrom(long first, List<Long> before, long second, List<Long> after) {
    return datanodes(500).stream()
        .filter(u -> appliers(new View(first, before.toArray(Long[]::new))).applierOf(u) == first
            && appliers(new View(second, after.toArray(Long[]::new))).applierOf(u) == second)
        .findFirst().orElseThrow();
  }

  @Test
  void theOldApplierKeepsApplyingThroughTheHandover() {
    String uuid = datanodeMovingFrom(3, List.of(3L, 7L), 11, List.of(3L, 7L, 11L));
    View view = new View(3, 3L, 7L);
    ReportAppliers old = appliers(view);
    assertEquals(new ReportAppliers.Route(true, false), old.route(uuid, false));
    view.ids.add(11L); // namenode 11 joins and wins the datanode
    assertTrue(old.route(uuid, false).apply(), "the old applier keeps applying during the handover");
    clock.addAndGet(HANDOVER_MS - 1);
    assertTrue(old.route(uuid, false).apply());
    clock.addAndGet(2);
    assertFalse(old.route(uuid, false).apply(), "and leaves it after the handover period");
  }

  @Test
  void theNewApplierReplaysWhatItKeptOnce() {
    String uuid = datanodeMovingFrom(3, List.of(3L, 7L, 11L), 11, List.of(7L, 11L));
    View view = new View(11, 3L, 7L, 11L);
    ReportAppliers appliers = appliers(view);
    assertFalse(appliers.route(uuid, false).apply(), "namenode 3 applies it");
    view.ids.remove(3L); // namenode 3 is evicted
    assertEquals(new ReportAppliers.Route(true, true), appliers.route(uuid, false));
    assertEquals(new ReportAppliers.Route(true, false), appliers.route(uuid, false), "the replay comes once");
  }

  @Test
  void aStaleHeartbeatRowMakesAListenerApplyAfterReplaying() {
    View view = new View(3, 3L, 7L);
    ReportAppliers appliers = appliers(view);
    String notMine = datanodes(50).stream().filter(u -> appliers.applierOf(u) == 7).findFirst().orElseThrow();
    assertFalse(appliers.route(notMine, false).apply());
    // the row's time is the applier's clock, an hour ahead of this one: only whether it changes counts
    long rowAt = clock.get() + 3_600_000;
    assertFalse(appliers.unheard(notMine, rowAt));
    clock.addAndGet(STALE_MS);
    long changedAt = clock.get();
    assertFalse(appliers.unheard(notMine, rowAt + 3_000), "the row changed: its applier hears the datanode");
    clock.addAndGet(STALE_MS);
    assertFalse(appliers.unheard(notMine, rowAt + 3_000));
    clock.addAndGet(1);
    assertTrue(appliers.unheard(notMine, rowAt + 3_000), "unchanged for the stale age by this namenode's clock");
    assertEquals(new ReportAppliers.Route(true, true), appliers.route(notMine, true));
    assertEquals(clock.get() - HANDOVER_MS, appliers.replayFromMs(notMine), "a handover period back");
    clock.addAndGet(3 * HANDOVER_MS);
    assertEquals(changedAt - STALE_MS, appliers.replayFromMs(notMine),
        "a late takeover replays from a stale age before the row last changed");
  }

  @Test
  void aRowSeenForTheFirstTimeIsNotStaleWhateverItsTime() {
    ReportAppliers appliers = appliers(new View(3, 3L, 7L));
    assertFalse(appliers.unheard("dn", clock.get() - 3_600_000), "an hour behind by the applier's clock");
    assertEquals(clock.get() - HANDOVER_MS, appliers.replayFromMs("other"));
  }
}
