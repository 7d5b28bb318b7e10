package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.SuspectBlocks;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Corrupt replicas on a real cluster (one namenode, four stock DataNodes), as issue 12 found them lost: with two of
 * three replicas corrupted on disk, what the client's read or a datanode's block scanner finds is tracked, a corrupt
 * replica never counts as live, setReplication 1 keeps the good one (it deleted a good one and kept a corrupt one
 * before), the corrupt ones are deleted only once the good ones reach the replication, and a replica whose length no
 * longer matches its block is marked corrupt rather than deleted when it is the last one.
 */
@Timeout(180)
class CorruptReplicaTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final Duration BOUND = Duration.ofSeconds(60);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setLong("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NameNodeConfig.REPLICATION_REPORT_GRACE_MS, 1_000);
  }).dataNodes(4).build();
  static DistributedFileSystem fs;

  @BeforeAll
  static void client() throws IOException {
    fs = CLUSTER.fileSystem();
  }

  /** Every test leaves the four datanodes running, whatever it did to them. */
  @AfterEach
  void restartStoppedDatanodes() throws Exception {
    for (int i = 0; i < CLUSTER.cluster().dataNodes().size(); i++) {
      if (!CLUSTER.cluster().dataNodes().get(i).isDatanodeFullyStarted()) {
        CLUSTER.cluster().restartDataNode(i);
      }
    }
  }

  /**
   * The scenario: 2 of 3 replicas corrupted, a read succeeds (reporting the two bad ones on its way to the good
   * one), setReplication 1 keeps the good replica and deletes the corrupt ones, and the file reads back.
   */
  @Test
  void aReadReportsTheCorruptReplicasAndSetReplicationOneKeepsTheGoodOne() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/corrupt/read");
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE / 2, 1);
    writeReplicated(path, data, 3);
    LocatedBlock block = onlyBlock(path);
    List<DatanodeInfo> corrupted = List.of(block.getLocations()[0], block.getLocations()[1]);
    for (DatanodeInfo location : corrupted) {
      flipBytes(blockFile(location, block.getBlock()));
    }

    // The namenode lists replicas at the same distance in random order (as HDFS does), so a read tries a corrupt one
    // first only some of the time: read until both were met and reported (each read reports the ones it tried).
    Await.until("the namenode tracks the two corrupt replicas", BOUND, () -> {
      assertArrayEquals(data, TestFiles.read(fs, path), "the read skips the corrupt replicas");
      return corruptReplicas(block) == 2;
    });
    assertEquals(List.of("CORRUPTION_REPORTED", "CORRUPTION_REPORTED"), StoreQueries.column(CLUSTER.store(),
        "SELECT reason FROM corrupt_replicas WHERE block_id = " + block.getBlock().getBlockId()));
    assertEquals(1, fs.getClient().getNamenode().getReplicatedBlockStats().getCorruptBlocks());
    assertTrue(dfsAdminReport().contains("Blocks with corrupt replicas: 1"), "dfsadmin -report counts it");
    LocatedBlock relocated = onlyBlock(path);
    assertEquals(1, relocated.getLocations().length, "readers are sent to the good replica only");
    assertFalse(relocated.isCorrupt());

    assertTrue(fs.setReplication(path, (short) 1));
    Await.until("the corrupt replicas are deleted on their datanodes", BOUND,
        () -> corrupted.stream().noneMatch(location -> holds(location, block.getBlock())));
    assertEquals(0, corruptReplicas(block));
    assertEquals(1, goodReplicas(block));
    assertArrayEquals(data, TestFiles.read(fs, path), "the good replica was kept");
    assertEquals(0, fs.getClient().getNamenode().getReplicatedBlockStats().getCorruptBlocks());
  }

  /**
   * Issue 12's acceptance test: several files with 2 of 3 replicas corrupted, found by the datanodes' block scanners
   * (reported through DatanodeProtocol.reportBadBlocks), then setReplication 1: every file reads back.
   */
  @Test
  void setReplicationOneAfterTheBlockScannerFoundTwoCorruptReplicasOfEachFileKeepsEveryFile() throws Exception {
    Map<org.apache.hadoop.fs.Path, byte[]> files = new LinkedHashMap<>();
    for (int i = 0; i < 4; i++) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/corrupt/scanned/f" + i);
      byte[] data = TestFiles.randomBytes(BLOCK_SIZE / 4 + i * 100, 10 + i);
      writeReplicated(path, data, 3);
      files.put(path, data);
    }
    List<LocatedBlock> blocks = new ArrayList<>();
    Map<String, Long> corruptedOnStorage = new LinkedHashMap<>();
    for (org.apache.hadoop.fs.Path path : files.keySet()) {
      LocatedBlock block = onlyBlock(path);
      blocks.add(block);
      // Which two: a different pair per file, the good one anywhere in the list.
      DatanodeInfo[] locations = block.getLocations();
      int good = blocks.size() % locations.length;
      for (int j = 0; j < locations.length; j++) {
        if (j != good) {
          flipBytes(blockFile(locations[j], block.getBlock()));
          corruptedOnStorage.put(storageOf(block, j), block.getBlock().getBlockId());
          SuspectBlocks.markSuspect(dataNodeAt(locations[j]), storageOf(block, j), block.getBlock());
        }
      }
    }
    // Each corrupted replica is then recorded corrupt, or already deleted (once a block had good copies enough).
    Await.until("the block scanners have reported every corrupted replica", BOUND,
        () -> corruptedOnStorage.entrySet().stream().allMatch(c -> count("SELECT count(*) FROM replicas WHERE "
            + "corrupt_reason = 0 AND block_id = " + c.getValue() + " AND storage_id = '" + c.getKey() + "'") == 0));

    for (org.apache.hadoop.fs.Path path : files.keySet()) {
      assertTrue(fs.setReplication(path, (short) 1));
    }
    Await.until("every block keeps one good replica and loses its corrupt ones", BOUND,
        () -> blocks.stream().allMatch(b -> corruptReplicas(b) == 0 && goodReplicas(b) == 1));
    for (LocatedBlock block : blocks) {
      Await.until("the corrupt replicas of block " + block.getBlock().getBlockId() + " leave the disks", BOUND,
          () -> physicalReplicas(block.getBlock()) == 1);
    }
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> file : files.entrySet()) {
      assertArrayEquals(file.getValue(), TestFiles.read(fs, file.getKey()), file.getKey() + " reads back");
    }
  }

  /**
   * A datanode restarted with a replica shorter than its block (a truncated block file) reports the short length:
   * the replica is marked corrupt, and, being the block's only replica, it is kept on disk and still located (flagged
   * corrupt) rather than deleted as stale (before the fix, the namenode deleted the last replica).
   */
  @Test
  void theLastReplicaWithAWrongLengthIsMarkedCorruptNotDeleted() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/corrupt/short-single");
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE / 2, 30);
    writeReplicated(path, data, 1);
    LocatedBlock block = onlyBlock(path);
    DatanodeInfo holder = block.getLocations()[0];
    Path file = blockFile(holder, block.getBlock());
    int index = restartWith(holder, () -> truncate(file, data.length - 1000));

    Await.until("the short replica is marked corrupt", BOUND, () -> corruptReplicas(block) == 1);
    assertEquals(List.of("SIZE_MISMATCH"), StoreQueries.column(CLUSTER.store(),
        "SELECT reason FROM corrupt_replicas WHERE block_id = " + block.getBlock().getBlockId()));
    Thread.sleep(3_000); // heartbeats and replication runs that would have carried a deletion
    assertTrue(Files.exists(file), "the only replica stays on its datanode");
    assertTrue(holds(CLUSTER.cluster().dataNodes().get(index), block.getBlock()));
    LocatedBlock located = onlyBlock(path);
    assertTrue(located.isCorrupt(), "a block left with corrupt replicas only is located on them, flagged corrupt");
    assertEquals(1, located.getLocations().length);
    assertEquals(1, fs.getClient().getNamenode().getReplicatedBlockStats().getCorruptBlocks());
  }

  /**
   * One of three replicas found short at a datanode restart: it stays until the block is copied from a good replica
   * to the fourth datanode, then it is deleted; no good replica is touched.
   */
  @Test
  void aShortReplicaIsReplacedFromAGoodOneAndOnlyThenDeleted() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/corrupt/short-of-three");
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE / 2, 40);
    writeReplicated(path, data, 3);
    LocatedBlock block = onlyBlock(path);
    DatanodeInfo shortOne = block.getLocations()[2];
    Set<String> goodHolders = new HashSet<>();
    for (DatanodeInfo location : block.getLocations()) {
      if (!location.equals(shortOne)) {
        goodHolders.add(location.getDatanodeUuid());
      }
    }
    Path file = blockFile(shortOne, block.getBlock());
    restartWith(shortOne, () -> truncate(file, data.length / 2));

    try {
      Await.until("the block has three good replicas again and the short one is gone", BOUND,
          () -> goodReplicas(block) == 3 && corruptReplicas(block) == 0 && !Files.exists(file));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; replicas: " + StoreQueries.rows(CLUSTER.store(),
          "SELECT * FROM replicas WHERE block_id = " + block.getBlock().getBlockId()) + "; queue: "
          + StoreQueries.rows(CLUSTER.store(), "SELECT * FROM replication_queue") + "; file exists: "
          + Files.exists(file) + " " + Files.size(file), e);
    }
    for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
      if (goodHolders.contains(dataNode.getDatanodeUuid())) {
        assertTrue(holds(dataNode, block.getBlock()), "good replicas are kept");
      }
    }
    assertArrayEquals(data, TestFiles.read(fs, path));
  }

  // ---- helpers ----

  private static void writeReplicated(org.apache.hadoop.fs.Path path, byte[] data, int replication) throws Exception {
    TestFiles.write(fs, path, data, (short) replication, BLOCK_SIZE);
    LocatedBlock block = onlyBlock(path);
    Await.until(path + " has " + replication + " replicas", BOUND,
        () -> goodReplicas(block) == replication && physicalReplicas(block.getBlock()) == replication);
  }

  private static LocatedBlock onlyBlock(org.apache.hadoop.fs.Path path) throws IOException {
    LocatedBlocks blocks = fs.getClient().getLocatedBlocks(path.toString(), 0);
    assertEquals(1, blocks.getLocatedBlocks().size(), path + " has one block");
    return blocks.getLocatedBlocks().get(0);
  }

  private static long corruptReplicas(LocatedBlock block) {
    return count("SELECT count(*) FROM replicas WHERE corrupt_reason <> 0 AND block_id = "
        + block.getBlock().getBlockId());
  }

  private static long goodReplicas(LocatedBlock block) {
    return count("SELECT count(*) FROM replicas WHERE corrupt_reason = 0 AND block_id = "
        + block.getBlock().getBlockId());
  }

  private static long count(String sql) {
    try {
      return StoreQueries.count(CLUSTER.store(), sql);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int physicalReplicas(ExtendedBlock block) {
    int count = 0;
    for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
      if (holds(dataNode, block)) {
        count++;
      }
    }
    return count;
  }

  private static boolean holds(DatanodeInfo location, ExtendedBlock block) {
    return holds(dataNodeAt(location), block);
  }

  private static boolean holds(DataNode dataNode, ExtendedBlock block) {
    if (dataNode.getFSDataset() == null) {
      return false;
    }
    try {
      return dataNode.getFSDataset().getStoredBlock(block.getBlockPoolId(), block.getBlockId()) != null;
    } catch (org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static DataNode dataNodeAt(DatanodeInfo location) {
    for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
      if (dataNode.getXferPort() == location.getXferPort()) {
        return dataNode;
      }
    }
    throw new AssertionError("no running datanode serves " + location);
  }

  private static String storageOf(LocatedBlock block, int index) {
    String[] storages = block.getStorageIDs();
    return storages != null && index < storages.length ? storages[index] : null;
  }

  /** The replica's block file on the datanode's disk. */
  private static Path blockFile(DatanodeInfo location, ExtendedBlock block) throws IOException {
    return Path.of(dataNodeAt(location).getFSDataset().getBlockLocalPathInfo(block).getBlockPath());
  }

  /** Corrupts bytes in the middle of a block file, keeping its length (only checksums can tell). */
  private static void flipBytes(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      long middle = raf.length() / 2;
      byte[] bytes = new byte[16];
      raf.seek(middle);
      raf.readFully(bytes);
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) ~bytes[i];
      }
      raf.seek(middle);
      raf.write(bytes);
    }
  }

  private static void truncate(Path file, long length) {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(length);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Stops the datanode at {@code location}, runs {@code change} on its disk, starts it again; answers its index. The
   * replica list a DataNode saves at shutdown (and trusts at its next start) is removed, so the restarted datanode
   * reads its replicas' lengths from the disk, as after a crash.
   */
  private static int restartWith(DatanodeInfo location, Runnable change) throws Exception {
    DataNode dataNode = dataNodeAt(location);
    int index = CLUSTER.cluster().dataNodes().indexOf(dataNode);
    dataNode.shutdown();
    change.run();
    // The stopping DataNode writes the list as its block pool service ends, which can be just after shutdown().
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (savedReplicaLists(index).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    for (Path saved : savedReplicaLists(index)) {
      Files.delete(saved);
    }
    CLUSTER.cluster().restartDataNode(index);
    return index;
  }

  private static List<Path> savedReplicaLists(int index) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(CLUSTER.cluster().dataNodeDirectory(index))) {
      return files.filter(f -> f.getFileName().toString().equals("replicas")).toList();
    }
  }

  private static String dfsAdminReport() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream previous = System.out;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      assertEquals(0, ToolRunner.run(new DFSAdmin(new Configuration(fs.getConf())),
          new String[] {"-fs", fs.getUri().toString(), "-report"}));
    } finally {
      System.setOut(previous);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
