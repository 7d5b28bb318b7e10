package io.canopy.namenode.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.canopy.metadata.entity.ReplicationPriority;
import org.junit.jupiter.api.Test;

class ReplicationQueueTest {
  @Test
  void prioritiesFollowHdfsLowRedundancyLevelsPlusExcessAndMissing() {
    assertNull(ReplicationQueue.priority(3, 3));
    assertEquals(ReplicationPriority.EXCESS, ReplicationQueue.priority(4, 3));
    assertEquals(ReplicationPriority.MISSING, ReplicationQueue.priority(0, 3));
    assertEquals(ReplicationPriority.HIGHEST, ReplicationQueue.priority(1, 3));
    assertEquals(ReplicationPriority.HIGHEST, ReplicationQueue.priority(1, 2));
    assertEquals(ReplicationPriority.UNDER_REPLICATED, ReplicationQueue.priority(2, 3));
    assertEquals(ReplicationPriority.VERY_UNDER_REPLICATED, ReplicationQueue.priority(2, 10));
    assertEquals(ReplicationPriority.UNDER_REPLICATED, ReplicationQueue.priority(4, 10));
    assertNull(ReplicationQueue.priority(1, 1));
    assertEquals(ReplicationPriority.EXCESS, ReplicationQueue.priority(1, 0));
  }
}
