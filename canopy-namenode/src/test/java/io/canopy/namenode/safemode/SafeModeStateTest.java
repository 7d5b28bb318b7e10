package io.canopy.namenode.safemode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** HDFS's safe mode thresholds and tips, as users read them in SafeModeException and {@code canopy up}. */
class SafeModeStateTest {
  private final SafeModeSettings settings = SafeModeSettings.from(new Configuration(false));

  @Test
  void defaultsAreHdfsDefaults() {
    assertEquals(0.999, settings.thresholdPct(), 1e-6);
    assertEquals(0, settings.minDatanodes());
    assertEquals(30_000, settings.extensionMs());
    assertEquals(1, settings.safeReplication());
  }

  @Test
  void thresholdsAreHdfsOnes() {
    assertTrue(settings.thresholdsMet(0, 0, 0), "an empty namespace meets them at once");
    assertTrue(settings.thresholdsMet(0, 1, 0), "(long) (1 x 0.999) is 0, as in HDFS");
    assertFalse(settings.thresholdsMet(998, 1_000, 0));
    assertTrue(settings.thresholdsMet(999, 1_000, 0));
    SafeModeSettings twoDatanodes = new SafeModeSettings(0.999, 2, 0, 1, 1000);
    assertFalse(twoDatanodes.thresholdsMet(10, 10, 1));
  }

  @Test
  void tipsSayWhatIsMissingAsHdfsDoes() {
    SafeModeState waiting = new SafeModeState(false, true, 0, 5, 1_000, 2, 0, 0);
    assertEquals("The reported blocks 5 needs additional 994 blocks to reach the threshold 0.9990 of total blocks "
        + "1000.\nThe number of live datanodes 2 has reached the minimum number 0. Safe mode will be turned off "
        + "automatically once the thresholds have been reached.", waiting.tip(settings, 0));
    SafeModeState extension = new SafeModeState(false, true, 10_000, 1_000, 1_000, 3, 0, 0);
    assertTrue(extension.tip(settings, 20_000).endsWith("In safe mode extension. Safe mode will be turned off "
        + "automatically in 20 seconds."), extension.tip(settings, 20_000));
    SafeModeState future = new SafeModeState(false, true, 0, 1_000, 1_000, 3, 2, 4_096);
    String tip = future.tip(settings, 0);
    assertTrue(tip.contains("Name node detected blocks with generation stamps in future."), tip);
    assertTrue(tip.contains("Exiting safe mode will cause loss of 4096 byte(s) in 2 block(s)."), tip);
    assertTrue(tip.contains("hdfs dfsadmin -safemode forceExit"), tip);
    assertTrue(waiting.withManual(true).tip(settings, 0).startsWith("It was turned on manually."));
    assertTrue(waiting.on() && !SafeModeState.OFF.on());
  }
}
