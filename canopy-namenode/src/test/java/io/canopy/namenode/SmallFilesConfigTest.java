package io.canopy.namenode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.smallfiles.SmallBlockReadSettings;
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

  @Test
  void theReadEndpointDefaultsToAnyFreePortSixteenHandlersAndHdfsTimeouts() {
    SmallBlockReadSettings settings = SmallFilesConfig.readSettings(new Configuration(false));
    assertEquals(new SmallBlockReadSettings(0, 16, 64, 60_000, 4_000), settings);
    Configuration conf = new Configuration(false);
    conf.setInt(SmallFilesConfig.READ_PORT, 50_021);
    conf.setInt(SmallFilesConfig.READ_HANDLER_COUNT, 4);
    conf.setInt(SmallFilesConfig.READ_KEEPALIVE_MS, 0);
    assertEquals(new SmallBlockReadSettings(50_021, 4, 64, 60_000, 0), SmallFilesConfig.readSettings(conf));
  }

  @Test
  void aReadEndpointSettingOutOfBoundsIsRefusedNamingTheKey() {
    Object[][] wrong = {{SmallFilesConfig.READ_PORT, 65_536}, {SmallFilesConfig.READ_HANDLER_COUNT, 0},
        {SmallFilesConfig.READ_QUEUE_SIZE, 0}, {SmallFilesConfig.READ_TIMEOUT_MS, 999},
        {SmallFilesConfig.READ_KEEPALIVE_MS, 60_001}};
    for (Object[] setting : wrong) {
      Configuration conf = new Configuration(false);
      conf.setInt((String) setting[0], (Integer) setting[1]);
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> SmallFilesConfig.readSettings(conf));
      assertTrue(refused.getMessage().startsWith(setting[0] + " = " + setting[1] + ": "), refused.getMessage());
    }
  }
}
