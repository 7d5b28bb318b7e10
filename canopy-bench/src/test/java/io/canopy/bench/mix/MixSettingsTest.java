package io.canopy.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MixSettingsTest {
  @Test
  void setReplicationCyclesFromOneByDefaultAndFromTheChosenFloorOtherwise() {
    assertEquals(1, MixSettings.defaults().lowestSetReplication());
    MixSettings floorTwo = MixSettings.defaults().withLowestSetReplication(2).withThreads(3).withSeed(5);
    assertEquals(2, floorTwo.lowestSetReplication(), "kept by the other withers");
    assertEquals(3, floorTwo.threads());
  }

  @Test
  void aFloorOutsideOneToThreeIsRefusedByName() {
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> MixSettings.defaults().withLowestSetReplication(0));
    assertTrue(zero.getMessage().contains("lowestSetReplication"), zero.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> MixSettings.defaults().withLowestSetReplication(MixSettings.HIGHEST_SET_REPLICATION + 1));
  }
}
