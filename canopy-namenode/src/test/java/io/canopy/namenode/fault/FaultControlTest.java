package io.canopy.namenode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultControlTest {
  @TempDir
  Path dir;

  private FaultControl control(Path file, int port) {
    Configuration conf = new Configuration(false);
    conf.set(FaultControl.FILE_KEY, file.toString());
    return FaultControl.from(conf, port);
  }

  @Test
  void offUnlessAFileIsNamed() {
    assertNull(FaultControl.from(new Configuration(false), 8020));
  }

  @Test
  void aMissingFileMeansNoFault() {
    FaultControl control = control(dir.resolve("none"), 8020);
    assertEquals("dal.fault.probability=0.0, clock.offset.ms=0", control.state());
    long before = System.currentTimeMillis();
    long clock = control.wallClockMs();
    assertTrue(clock >= before && clock <= System.currentTimeMillis());
  }

  @Test
  void theNamenodesPortKeysWinOverThePlainOnes() throws Exception {
    Path file = dir.resolve("faults");
    Files.writeString(file, "dal.fault.probability=0.25\nclock.offset.ms=-1000\n8021.clock.offset.ms=60000\n");
    FaultControl first = control(file, 8020);
    FaultControl second = control(file, 8021);
    assertEquals("dal.fault.probability=0.25, clock.offset.ms=-1000", first.state());
    assertEquals("dal.fault.probability=0.25, clock.offset.ms=60000", second.state());
    long now = System.currentTimeMillis();
    assertTrue(second.wallClockMs() - now >= 59_000, "the offset moves the namenode's clock");
    assertTrue(first.wallClockMs() - now <= -999 + 50);
  }

  @Test
  void changesAreReadAndInvalidOnesLeaveTheFaultsAsTheyWere() throws Exception {
    Path file = dir.resolve("faults");
    Files.writeString(file, "dal.fault.probability=0.5\n");
    FaultControl control = control(file, 8020);
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state());
    Files.writeString(file, "dal.fault.probability=2\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state(), "out of range: unchanged");
    Files.writeString(file, "clock.offset.ms=" + (FaultControl.MAX_OFFSET_MS + 1) + "\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state(), "beyond a day: unchanged");
    Files.writeString(file, "clock.offset.ms=abc\n");
    control.poll();
    assertEquals("dal.fault.probability=0.5, clock.offset.ms=0", control.state());
    Files.delete(file);
    control.poll();
    assertEquals("dal.fault.probability=0.0, clock.offset.ms=0", control.state(), "no file: healed");
  }
}
