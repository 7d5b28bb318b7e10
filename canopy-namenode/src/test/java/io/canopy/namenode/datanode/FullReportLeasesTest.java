package io.canopy.namenode.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class FullReportLeasesTest {
  private final AtomicLong now = new AtomicLong(1_000);

  private FullReportLeases leases(int max) {
    return new FullReportLeases(max, 60_000, now::get, new Random(17));
  }

  @Test
  void atMostMaxDatanodesHoldALeaseAndARefusedOneGetsTheNextFreed() {
    FullReportLeases leases = leases(2);
    long a = leases.grant("dn-a");
    long b = leases.grant("dn-b");
    assertNotEquals(0, a);
    assertNotEquals(0, b);
    assertNotEquals(a, b);
    assertEquals(0, leases.grant("dn-c"), "a third datanode waits");
    assertEquals(1, leases.refused());
    assertEquals(a, leases.grant("dn-a"), "asking again keeps the lease held");

    leases.release("dn-a", a);
    assertEquals(1, leases.held());
    assertNotEquals(0, leases.grant("dn-c"), "dn-a's report is in: dn-c may send its own");
    assertEquals(0, leases.grant("dn-a"), "dn-a, due again, waits in turn");
  }

  @Test
  void aLeaseEndsWithItsLengthAndAStaleReleaseChangesNothing() {
    FullReportLeases leases = leases(1);
    long a = leases.grant("dn-a");
    assertEquals(0, leases.grant("dn-b"));
    now.addAndGet(59_999);
    assertEquals(0, leases.grant("dn-b"), "not expired yet");
    now.addAndGet(1);
    long b = leases.grant("dn-b");
    assertNotEquals(0, b, "dn-a died holding its lease: it expired");
    leases.release("dn-a", a);
    leases.release("dn-b", b + 1);
    assertEquals(1, leases.held(), "a release naming another lease leaves dn-b's");
    assertEquals(b, leases.grant("dn-b"));
  }

  @Test
  void hdfsKeysConfigureThemAndNonsenseIsRefusedNamingTheKeys() {
    Configuration conf = new Configuration(false);
    FullReportLeases defaults = FullReportLeases.of(conf, now::get, new Random(1));
    assertEquals(6, defaults.max());
    assertEquals(300_000, defaults.lengthMs());
    conf.setInt("dfs.namenode.max.full.block.report.leases", 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FullReportLeases.of(conf, now::get, new Random(1)));
    assertEquals(true, e.getMessage().contains("dfs.namenode.max.full.block.report.leases"), e.getMessage());
  }
}
