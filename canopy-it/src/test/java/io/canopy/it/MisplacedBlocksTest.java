package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.entity.QueuedBlock;
import io.canopy.metadata.entity.ReplicaKey;
import io.canopy.metadata.entity.ReplicationPriority;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.datanode.ReplicaReportProcessor;
import io.canopy.namenode.datanode.ReportedReplica;
import io.canopy.namenode.replication.PlacementScan;
import io.canopy.namenode.topology.NameTableMapping;
import io.canopy.namenode.tx.FileTables;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.TransactionRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Blocks written while a single zone was up have all their replicas there. When a datanode of a second zone comes,
 * the leader's placement scan finds them, the replication duty copies each to the new zone and removes the excess
 * replica from the crowded one (design 019): every block ends with its replication over two zones, and reads back.
 */
@Timeout(180)
class MisplacedBlocksTest {
  private static final Duration BOUND = Duration.ofSeconds(90);
  private static final int FILES = 3;
  private static final int BLOCK_SIZE = 64 * 1024;

  @TempDir
  Path directory;

  @Test
  void blocksAllInOneZoneAreSpreadOnceASecondZoneIsUp() throws Exception {
    Configuration conf = zonedConfiguration(1);
    conf.setLong(NameNodeConfig.REPLICATION_REPORT_GRACE_MS, 500);
    // the fewest replicas per run (24 are recorded): the scan pages through them over two runs, cutting at a page end
    conf.setInt(NameNodeConfig.PLACEMENT_SCAN_REPLICAS_PER_RUN, PlacementScan.MIN_REPLICAS_PER_RUN);
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 0);
        MetadataStore store = cluster.openStore()) {
      cluster.startDataNode("dn-a1.az1.localhost");
      cluster.startDataNode("dn-a2.az1.localhost");
      cluster.waitForDataNodes(2, BOUND);
      DistributedFileSystem fs = cluster.fileSystem();
      List<byte[]> contents = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        byte[] data = TestFiles.randomBytes(3 * BLOCK_SIZE + 100, i);
        TestFiles.write(fs, path(i), data, (short) 2, BLOCK_SIZE);
        contents.add(data);
      }
      long blocks = StoreQueries.count(store, "SELECT count(*) FROM blocks");
      assertEquals(FILES * 4, blocks);
      Await.until("every block has its two replicas, both in zone az1", BOUND, () -> zoneSpans(store, "= 1") == blocks
          && StoreQueries.count(store, "SELECT count(*) FROM replicas") == 2 * blocks);

      cluster.startDataNode("dn-b1.az2.localhost");
      cluster.waitForDataNodes(3, BOUND);
      Await.until("every block has two replicas over two zones", BOUND, () -> zoneSpans(store, "= 2") == blocks
          && StoreQueries.count(store, "SELECT count(*) FROM replicas") == 2 * blocks
          && StoreQueries.count(store, "SELECT count(*) FROM replication_queue") == 0);
      assertEquals(0, StoreQueries.count(store, "SELECT count(*) FROM replication_queue WHERE priority = "
          + ReplicationPriority.MISPLACED.code()));
      assertEquals(0, fs.getClient().getNamenode().getReplicatedBlockStats().getLowRedundancyBlocks());
      for (int i = 0; i < FILES; i++) {
        assertArrayEquals(contents.get(i), TestFiles.read(fs, path(i)), "file " + i + " reads back");
      }
    }
  }

  /**
   * A report that brings a closed file's block back to its replication takes the block off the queue, unless its
   * replicas all sit in one zone while another zone is live: then it stays queued, as mis-placed. The leader's duties
   * are held off (an hour between runs) so that only the report decides.
   */
  @Test
  void aReportCompletingABlockAllInOneZoneLeavesItQueuedAsMisplaced() throws Exception {
    Configuration conf = zonedConfiguration(3600);
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 0);
        MetadataStore store = cluster.openStore()) {
      cluster.startDataNode("dn-a1.az1.localhost");
      cluster.startDataNode("dn-a2.az1.localhost");
      cluster.waitForDataNodes(2, BOUND);
      DistributedFileSystem fs = cluster.fileSystem();
      TestFiles.write(fs, path(0), TestFiles.randomBytes(BLOCK_SIZE, 7), (short) 2, BLOCK_SIZE);
      Await.until("the block has its two replicas in zone az1", BOUND,
          () -> StoreQueries.count(store, "SELECT count(*) FROM replicas") == 2);
      cluster.startDataNode("dn-b1.az2.localhost");
      cluster.waitForDataNodes(3, BOUND);

      List<String> row = StoreQueries.rows(store, "SELECT r.inode_id, r.block_id, b.generation_stamp, b.num_bytes, "
          + "s.datanode_uuid, s.storage_id FROM replicas r JOIN blocks b ON b.block_id = r.block_id "
          + "JOIN storages s ON s.storage_id = r.storage_id JOIN datanodes d ON d.uuid = s.datanode_uuid "
          + "WHERE d.network_location = '/az1/rack2'").get(0);
      long inode = Long.parseLong(row.get(0));
      long block = Long.parseLong(row.get(1));
      ReplicaReportProcessor reports = cluster.nameNode(0).replicaReports();
      TransactionRunner runner = cluster.nameNode(0).runner();
      // The report path's view of the live datanodes is cached (refreshed every second): wait until it has az2 live,
      // so that two replicas in az1 read as narrow.
      List<String> storages = StoreQueries.column(store, "SELECT storage_id FROM replicas WHERE block_id = " + block);
      Await.until("the namenode's report path sees zone az2 live", BOUND,
          () -> reports.narrowBlocks().narrow(storages));
      String queued = "SELECT priority FROM replication_queue WHERE block_id = " + block;

      runner.run(reports.applyOp(inode, row.get(4), row.get(5), List.of(new ReportedReplica(block,
          Long.parseLong(row.get(2)), Long.parseLong(row.get(3)), ReportedReplica.Kind.DELETED))));
      assertEquals(List.of(Integer.toString(ReplicationPriority.HIGHEST.code())),
          StoreQueries.column(store, queued), "one replica left of two: queued as short");

      runner.run(reports.applyOp(inode, row.get(4), row.get(5), List.of(new ReportedReplica(block,
          Long.parseLong(row.get(2)), Long.parseLong(row.get(3)), ReportedReplica.Kind.FINALIZED))));
      assertEquals(List.of(Integer.toString(ReplicationPriority.MISPLACED.code())),
          StoreQueries.column(store, queued), "two replicas again, both in az1 while az2 is live: still queued");

      // The leader found no target and backed the row off; the replica's record is lost (as if never reported) and
      // a report brings it back: the row keeps its back-off rather than asking the leader to look again at once.
      long backedOff = System.currentTimeMillis() + 3_600_000;
      ReplicaKey replica = new ReplicaKey(inode, block, row.get(5));
      runner.run(new Operation<Void>() {
        @Override
        public String name() {
          return "testBackOffAndForget";
        }

        @Override
        public LockRequest locks() {
          return LockRequest.inode(inode, LockMode.EXCLUSIVE);
        }

        @Override
        public Void execute(TransactionContext context) throws java.io.IOException {
          FileTables tables = context.fileData(context.inodeLockedById(), LockMode.EXCLUSIVE);
          tables.replicationQueue().put(new QueuedBlock(inode, block, ReplicationPriority.MISPLACED, backedOff));
          tables.replicas().delete(replica);
          return null;
        }
      });
      runner.run(reports.applyOp(inode, row.get(4), row.get(5), List.of(new ReportedReplica(block,
          Long.parseLong(row.get(2)), Long.parseLong(row.get(3)), ReportedReplica.Kind.FINALIZED))));
      assertEquals(2, StoreQueries.count(store, "SELECT count(*) FROM replicas WHERE block_id = " + block));
      assertEquals(List.of(List.of(Integer.toString(ReplicationPriority.MISPLACED.code()), Long.toString(backedOff))),
          StoreQueries.rows(store, "SELECT priority, not_before_ms FROM replication_queue WHERE block_id = " + block),
          "still queued as mis-placed, with the leader's back-off");
    }
  }

  /**
   * Datanodes dn-a1 and dn-a2 in zone az1 (racks 1 and 2), dn-b1 in zone az2; the leader's replication and placement
   * duties run every {@code intervalSeconds}.
   */
  private Configuration zonedConfiguration(long intervalSeconds) throws java.io.IOException {
    Path table = directory.resolve("topology.table");
    Files.writeString(table, String.join("\n", "dn-a1.az1.localhost /az1/rack1", "dn-a2.az1.localhost /az1/rack2",
        "dn-b1.az2.localhost /az2/rack1", ""));
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY, NameTableMapping.class.getName());
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.toString());
    conf.setLong("dfs.namenode.redundancy.interval.seconds", intervalSeconds);
    return conf;
  }

  private static org.apache.hadoop.fs.Path path(int i) {
    return new org.apache.hadoop.fs.Path("/zones/f" + i);
  }

  /** Blocks whose replicas span a number of zones matching {@code condition} (e.g. "= 2"). */
  private static long zoneSpans(MetadataStore store, String condition) throws java.io.IOException {
    return StoreQueries.count(store, "SELECT count(*) FROM (SELECT r.block_id FROM replicas r "
        + "JOIN storages s ON s.storage_id = r.storage_id JOIN datanodes d ON d.uuid = s.datanode_uuid "
        + "GROUP BY r.block_id HAVING count(DISTINCT split_part(d.network_location, '/', 2)) " + condition + ") b");
  }
}
