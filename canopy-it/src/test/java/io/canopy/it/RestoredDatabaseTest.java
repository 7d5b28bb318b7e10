package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12's restore scenario: stop the cluster, copy the database directory, start, write a file, stop, put the copy
 * back, start. The database no longer knows the newer file, but the datanodes hold its blocks. Before the fix every
 * datanode deleted them within seconds and the id counters went back, so the next file reused a block id that existed
 * on disk. Now: no block is deleted, the cluster stays in safe mode with HDFS's "generation stamps in future" message
 * (a plain leave is refused) until an operator forces it off, and no block id or generation stamp is handed out twice.
 */
@Timeout(240)
class RestoredDatabaseTest {
  private static final Duration BOUND = Duration.ofSeconds(60);
  /** Heartbeats (1 s) and leader runs that would have carried deletions, had any been decided. */
  private static final long WATCH_MS = 5_000;

  @TempDir
  Path directory;

  @Test
  void anOlderDatabaseUnderNewerDatanodesDeletesNothingAndHoldsSafeModeUntilForcedOut() throws Exception {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setLong("dfs.namenode.redundancy.interval.seconds", 1);
    org.apache.hadoop.fs.Path old = new org.apache.hadoop.fs.Path("/restore/old");
    org.apache.hadoop.fs.Path newer = new org.apache.hadoop.fs.Path("/restore/newer");
    byte[] oldData = TestFiles.randomBytes(70_000, 1);
    byte[] newerData = TestFiles.randomBytes(150_000, 2);
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 3)) {
      TestFiles.write(cluster.fileSystem(), old, oldData, 64 * 1024);
    }
    Path copy = directory.resolve("db-copy");
    copyTree(MiniCanopyCluster.databaseDirectory(directory), copy);

    List<ExtendedBlock> newerBlocks = new ArrayList<>();
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, conf, 1, 3)) {
      DistributedFileSystem fs = cluster.fileSystem();
      TestFiles.write(fs, newer, newerData, 64 * 1024);
      for (LocatedBlock block : fs.getClient().getLocatedBlocks(newer.toString(), 0).getLocatedBlocks()) {
        newerBlocks.add(block.getBlock());
      }
      Await.until("every replica of the newer file is on disk", BOUND,
          () -> newerBlocks.stream().allMatch(b -> replicasOnDisk(cluster, b) == 3));
    }
    assertEquals(3, newerBlocks.size());
    deleteTree(MiniCanopyCluster.databaseDirectory(directory));
    copyTree(copy, MiniCanopyCluster.databaseDirectory(directory));

    try (MiniCanopyCluster cluster = MiniCanopyCluster.startInSafeMode(directory, conf, 1, 3);
        MetadataStore store = cluster.openStore()) {
      DistributedFileSystem fs = cluster.fileSystem();
      long newerBytes = newerData.length;
      Await.until("the namenode counts the newer file's bytes as from the future", BOUND, () -> fs.getClient()
          .getNamenode().getReplicatedBlockStats().getBytesInFutureBlocks() == newerBytes);
      Thread.sleep(WATCH_MS);
      for (ExtendedBlock block : newerBlocks) {
        assertEquals(3, replicasOnDisk(cluster, block), "no replica of block " + block + " was deleted");
      }
      assertTrue(fs.setSafeMode(SafeModeAction.GET), "safe mode holds though every known block was reported");
      String tip = cluster.nameNode(0).safeMode().tip();
      assertTrue(tip.contains("Name node detected blocks with generation stamps in future"), tip);
      assertTrue(tip.contains("loss of " + newerBytes + " byte(s)"), tip);
      IOException refused = assertThrows(IOException.class, () -> fs.mkdirs(new org.apache.hadoop.fs.Path("/x")));
      assertEquals(SafeModeException.class.getName(), refused instanceof RemoteException remote
          ? remote.getClassName() : refused.getClass().getName(), refused.toString());
      assertTrue(refused.getMessage().contains("generation stamps in future"), refused.getMessage());
      assertArrayEquals(oldData, TestFiles.read(fs, old), "the files the database knows read as before");
      assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(newer));
      assertTrue(fs.setSafeMode(SafeModeAction.LEAVE), "a plain leave is refused while blocks from the future exist");

      long maxBlockId = newerBlocks.stream().mapToLong(ExtendedBlock::getBlockId).max().orElseThrow();
      long maxStamp = newerBlocks.stream().mapToLong(ExtendedBlock::getGenerationStamp).max().orElseThrow();
      assertTrue(counter(store, "next_id.block") > maxBlockId, "the block id counter moved past the newer blocks");
      assertTrue(counter(store, "next_id.generation_stamp") > maxStamp, "the stamp counter moved past them too");

      assertFalse(fs.setSafeMode(SafeModeAction.FORCE_EXIT), "forceExit leaves, accepting their loss");
      Await.until("every namenode sees safe mode off", BOUND, () -> !cluster.nameNode(0).safeMode().isOn());
      org.apache.hadoop.fs.Path after = new org.apache.hadoop.fs.Path("/restore/after");
      TestFiles.write(fs, after, TestFiles.randomBytes(1_000, 3), 64 * 1024);
      ExtendedBlock next = fs.getClient().getLocatedBlocks(after.toString(), 0).get(0).getBlock();
      assertTrue(next.getBlockId() > maxBlockId, "block id " + next.getBlockId() + " is not reused");
      assertTrue(next.getGenerationStamp() > maxStamp, "stamp " + next.getGenerationStamp() + " is not reused");
      assertEquals(0, fs.getClient().getNamenode().getReplicatedBlockStats().getBytesInFutureBlocks());
    }
  }

  private static long counter(MetadataStore store, String name) throws IOException {
    return Long.parseLong(StoreQueries.column(store, "SELECT long_value FROM variables WHERE name = '" + name + "'")
        .get(0));
  }

  private static int replicasOnDisk(MiniCanopyCluster cluster, ExtendedBlock block) {
    int count = 0;
    for (DataNode dataNode : cluster.dataNodes()) {
      try {
        if (dataNode.getFSDataset() != null
            && dataNode.getFSDataset().getStoredBlock(block.getBlockPoolId(), block.getBlockId()) != null) {
          count++;
        }
      } catch (IOException e) {
        // not there (ReplicaNotFoundException) or the datanode is starting
      }
    }
    return count;
  }

  /** Copies a stopped PostgreSQL data directory, permissions included (the server refuses a group-readable one). */
  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) { // parents first
        Files.copy(path, to.resolve(from.relativize(path).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
