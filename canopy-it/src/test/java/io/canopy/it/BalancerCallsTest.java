package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The NamenodeProtocol calls HDFS's balancer makes (issue 21, design 024; work in progress): getBlocks lists a
 * datanode's complete blocks with every location, bounded by size and minimum block size; isUpgradeFinalized.
 */
@Timeout(300)
class BalancerCallsTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong("dfs.blocksize", BLOCK_SIZE)).dataNodes(2).build();

  private static NamenodeProtocol namenode() throws IOException {
    return NameNodeProxies.createProxy(CLUSTER.cluster().conf(), URI.create(CLUSTER.cluster().uri()),
        NamenodeProtocol.class).getProxy();
  }

  @Test
  void getBlocksListsADatanodesCompleteBlocksWithEveryLocation() throws Exception {
    Path file = new Path("/balancer/f");
    byte[] data = TestFiles.randomBytes(5 * BLOCK_SIZE + 100, 24);
    TestFiles.write(CLUSTER.cluster().fileSystem(), file, data, BLOCK_SIZE);
    DatanodeInfo[] live = CLUSTER.cluster().fileSystem().getDataNodeStats(DatanodeReportType.LIVE);
    assertEquals(2, live.length);
    NamenodeProtocol namenode = namenode();
    assertTrue(namenode.isUpgradeFinalized());
    BlocksWithLocations all = namenode.getBlocks(live[0], Long.MAX_VALUE, 0, 0, null);
    assertEquals(6, all.getBlocks().length, "every block of the file is on both datanodes (replication 2)");
    Set<Long> ids = new HashSet<>();
    for (BlocksWithLocations.BlockWithLocations block : all.getBlocks()) {
      ids.add(block.getBlock().getBlockId());
      assertEquals(2, block.getDatanodeUuids().length, "both locations");
      assertTrue(java.util.Arrays.asList(block.getDatanodeUuids()).contains(live[0].getDatanodeUuid()));
    }
    assertEquals(6, ids.size());
    BlocksWithLocations big = namenode.getBlocks(live[0], Long.MAX_VALUE, BLOCK_SIZE, 0, null);
    assertEquals(5, big.getBlocks().length, "the last block (100 bytes) is below the minimum size");
    BlocksWithLocations some = namenode.getBlocks(live[1], 2 * BLOCK_SIZE, 0, 0, null);
    assertTrue(some.getBlocks().length >= 2 && some.getBlocks().length <= 3, "stops once the size is reached: "
        + some.getBlocks().length);
    RemoteException refused = assertThrows(RemoteException.class, () -> namenode.getBlocks(live[0], 0, 0, 0, null));
    assertTrue(refused.getMessage().contains("Unexpected not positive size"), refused.getMessage());
    assertArrayEquals(data, TestFiles.read(CLUSTER.cluster().fileSystem(), file));
  }
}
