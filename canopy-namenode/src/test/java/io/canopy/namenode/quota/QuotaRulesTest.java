package io.canopy.namenode.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.metadata.entity.Inode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules quotas count with: HDFS's violation test, a file's storage space, the path named in messages. */
class QuotaRulesTest {
  private static final long PREFERRED = 128;

  private static Inode file(boolean open, long size, short replication) {
    return Inode.builder().id(20_001).partitionId(16_385).parentId(16_385).name("f").permission((short) 0644)
        .owner("u").group("g").modificationTime(1).accessTime(1).size(size).replication(replication)
        .preferredBlockSize(PREFERRED).underConstruction(open).clientName(open ? "client" : null).build();
  }

  private static Inode directory(long id, String name, boolean quota) {
    return Inode.builder().id(id).partitionId(16_385).parentId(16_385).name(name).directory(true)
        .permission((short) 0755).owner("u").group("g").modificationTime(1).accessTime(1).hasQuota(quota).build();
  }

  @Test
  void aLimitIsViolatedOnlyByGrowthPastIt() {
    assertFalse(QuotaUpdater.violated(-1, 100, 5), "no limit");
    assertFalse(QuotaUpdater.violated(10, 5, 5), "reaching the limit is allowed");
    assertTrue(QuotaUpdater.violated(10, 6, 5));
    assertFalse(QuotaUpdater.violated(10, 50, 0), "no growth, even above a limit lowered below usage");
    assertFalse(QuotaUpdater.violated(10, 50, -3), "shrinking is never refused");
    assertTrue(QuotaUpdater.violated(0, 0, 1));
    assertFalse(QuotaUpdater.violated(Long.MAX_VALUE, Long.MAX_VALUE - 10, 5), "the root's default never trips");
  }

  @Test
  void blocksBeingWrittenCountAsWholePreferredBlocks() {
    Inode open = file(true, 0, (short) 3);
    List<Block> blocks = List.of(new Block(20_001, 1, 0, 128, 1001, BlockState.COMPLETE),
        new Block(20_001, 2, 1, 40, 1002, BlockState.COMMITTED),
        new Block(20_001, 3, 2, 7, 1003, BlockState.UNDER_CONSTRUCTION));
    assertEquals((128 + 40 + PREFERRED) * 3, StorageSpace.ofFile(open, blocks));
    assertEquals(PREFERRED, StorageSpace.ofBlock(open, new Block(20_001, 4, 3, 9, 1004,
        BlockState.UNDER_RECOVERY)));
    assertEquals(1000 * 2, StorageSpace.ofClosedFile(file(false, 1000, (short) 2)));
    assertThrows(IllegalArgumentException.class, () -> StorageSpace.ofClosedFile(open));
  }

  @Test
  void messagesNameTheQuotaDirectoryByItsPath() {
    List<Inode> ancestors = List.of(directory(16_385, "", false), directory(20_010, "user", false),
        directory(20_011, "alice", true));
    assertEquals("/", QuotaUpdater.pathOf(ancestors, 0));
    assertEquals("/user/alice", QuotaUpdater.pathOf(ancestors, 2));
    assertEquals(java.util.Set.of(20_011L), QuotaUpdater.quotaIds(ancestors));
  }
}
