package io.canopy.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SmallFilesConfigTest {
  @Test
  void theThresholdDefaultsToTheSixtyFourKilobytesOfThePaperAndZeroTurnsItOff() {
    Configuration conf = new Configuration(false);
    assertEquals(65536, SmallFilesConfig.maxBytes(conf));
    conf.setInt(SmallFilesConfig.MAX_BYTES, 0);
    assertEquals(0, SmallFilesConfig.maxBytes(conf));
    conf.setInt(SmallFilesConfig.MAX_BYTES, SmallFilesConfig.MAX_BYTES_LIMIT);
    assertEquals(SmallFilesConfig.MAX_BYTES_LIMIT, SmallFilesConfig.maxBytes(conf));
  }

  @Test
  void aThresholdOutOfBoundsIsRefusedNamingTheKeyAndTheBounds() {
    for (int wrong : new int[] {-1, SmallFilesConfig.MAX_BYTES_LIMIT + 1}) {
      Configuration conf = new Configuration(false);
      conf.setInt(SmallFilesConfig.MAX_BYTES, wrong);
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> SmallFilesConfig.maxBytes(conf));
      assertTrue(refused.getMessage().startsWith("canopy.smallfiles.max-bytes = " + wrong + ": must be between 0"),
          refused.getMessage());
      assertTrue(refused.getMessage().contains(String.valueOf(SmallFilesConfig.MAX_BYTES_LIMIT)));
    }
  }
}
