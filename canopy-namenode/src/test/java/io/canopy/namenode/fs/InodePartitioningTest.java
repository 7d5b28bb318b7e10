package io.canopy.namenode.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.InodeKey;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InodePartitioningTest {
  @Test
  void childrenOfOrdinaryDirectoriesLiveInTheParentsPartition() {
    assertEquals(new InodeKey(77, 77, "x"), InodePartitioning.keyOf(77, false, "x"));
  }

  @Test
  void childrenOfSpreadingDirectoriesGetStablePseudoRandomPartitions() {
    long first = InodePartitioning.partitionOf(InodePartitioning.ROOT_ID, true, "user");
    assertEquals(first, InodePartitioning.partitionOf(InodePartitioning.ROOT_ID, true, "user"), "stable");
    Set<Long> partitions = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      long partition = InodePartitioning.partitionOf(InodePartitioning.ROOT_ID, true, "dir" + i);
      assertTrue(partition >= 0, "non-negative");
      assertNotEquals(InodePartitioning.ROOT_ID, partition, "never the parent id: that marks unspread rows");
      partitions.add(partition);
    }
    assertEquals(1000, partitions.size(), "1000 names spread over 1000 partitions");
    assertNotEquals(InodePartitioning.partitionOf(1, true, "a"), InodePartitioning.partitionOf(2, true, "a"),
        "the parent id takes part in the hash");
  }

  @Test
  void onlyTheTopLevelsSpread() {
    assertTrue(InodePartitioning.spreads(0, InodePartitioning.DEFAULT_SPREAD_LEVELS));
    assertTrue(InodePartitioning.spreads(1, InodePartitioning.DEFAULT_SPREAD_LEVELS));
    assertTrue(!InodePartitioning.spreads(2, InodePartitioning.DEFAULT_SPREAD_LEVELS));
  }
}
