package io.canopy.namenode.smallfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;

class SmallFilesDatanodeTest {
  @Test
  void theEndpointIsADatanodeWhoseTransferAddressIsItsAddressAndPort() {
    SmallFilesDatanode endpoint = SmallFilesDatanode.at(new InetSocketAddress("127.0.0.1", 50_123));
    DatanodeInfo info = endpoint.info();
    assertEquals("127.0.0.1:50123", info.getXferAddr());
    assertEquals("127.0.0.1:50123", info.getXferAddr(true), "with dfs.client.use.datanode.hostname");
    assertEquals("canopy-smallfiles-127.0.0.1:50123", info.getDatanodeUuid());
    assertEquals(0, info.getIpcPort());
    assertEquals(0, info.getInfoPort());
    assertEquals(StorageType.DISK, endpoint.info().getStorageType());
    assertTrue(SmallFilesDatanode.isSmallFilesDatanode(info));
  }

  @Test
  void aSmallFilesBlockIsLocatedOnTheEndpointAlone() {
    SmallFilesDatanode endpoint = SmallFilesDatanode.at(new InetSocketAddress("127.0.0.1", 50_123));
    ExtendedBlock block = new ExtendedBlock("BP-1", -42, 4096, 1001);
    LocatedBlock located = endpoint.located(block, 0);
    assertEquals(block, located.getBlock());
    assertEquals(1, located.getLocations().length);
    assertEquals("127.0.0.1:50123", located.getLocations()[0].getXferAddr());
    assertArrayEquals(new String[] {endpoint.storageId()}, located.getStorageIDs());
    assertFalse(located.isCorrupt());
  }

  @Test
  void addressesAClientCannotReachAndDatanodeBlocksAreRefused() {
    IllegalArgumentException wildcard = assertThrows(IllegalArgumentException.class,
        () -> SmallFilesDatanode.at(new InetSocketAddress("0.0.0.0", 50_123)));
    assertTrue(wildcard.getMessage().contains("wildcard"), wildcard.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SmallFilesDatanode.at(new InetSocketAddress("127.0.0.1", 0)));
    assertThrows(IllegalArgumentException.class,
        () -> SmallFilesDatanode.at(InetSocketAddress.createUnresolved("namenode.invalid", 50_123)));
    SmallFilesDatanode endpoint = SmallFilesDatanode.at(new InetSocketAddress("127.0.0.1", 50_123));
    IllegalArgumentException datanodeBlock = assertThrows(IllegalArgumentException.class,
        () -> endpoint.located(new ExtendedBlock("BP-1", 1_073_741_825L, 10, 1001), 0));
    assertTrue(datanodeBlock.getMessage().contains("blk_1073741825_1001"), datanodeBlock.getMessage());
  }
}
