package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.Block;
import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.datanode.ReportedReplica;
import io.canopy.namenode.fs.LeaseLimits;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxiesClient;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * truncate and concat on a real cluster (one namenode, three datanodes, replication 3, 64 KiB blocks): truncates on
 * a block boundary (done at once, the removed blocks deleted on the datanodes) and inside a block (the datanodes cut
 * the block in a recovery, held open by {@link RecoveryGate} while the test looks at the file under truncation),
 * HDFS's refusals; concat in several orders, its refusals (nothing changes), and its retry cache.
 */
class TruncateConcatTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final Duration RECOVERY_WAIT = Duration.ofSeconds(40);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(LeaseRecoveryTest::fastLeaseRecovery).dataNodes(3).awaitLeader()
      .startTimeout(Duration.ofSeconds(120)).build();
  static DistributedFileSystem fs;
  private final List<FileSystem> writers = new ArrayList<>();

  @BeforeAll
  static void client() throws IOException {
    fs = CLUSTER.fileSystem();
  }

  @AfterEach
  void closeWriters() {
    for (FileSystem writer : writers) {
      try {
        writer.close();
      } catch (IOException ignored) {
        // best effort
      }
    }
    writers.clear();
  }

  // ---- truncate ----

  @Test
  @Timeout(60)
  void truncateOnABlockBoundaryIsDoneAtOnceAndDeletesTheRemovedReplicas() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/truncate/boundary");
    byte[] data = TestFiles.randomBytes(3 * BLOCK_SIZE + 1000, 1);
    write(path, data);
    List<LocatedBlock> before = fs.getClient().getLocatedBlocks(path.toString(), 0).getLocatedBlocks();
    assertEquals(4, before.size());
    long inode = fs.getClient().getFileInfo(path.toString()).getFileId();

    assertTrue(fs.truncate(path, 2 * BLOCK_SIZE), "on a block boundary nothing waits for the datanodes");

    assertTrue(fs.isFileClosed(path));
    assertEquals(2L * BLOCK_SIZE, fs.getFileStatus(path).getLen());
    assertArrayEquals(Arrays.copyOf(data, 2 * BLOCK_SIZE), TestFiles.read(fs, path));
    assertEquals(2, count("SELECT count(*) FROM blocks WHERE inode_id = " + inode));
    for (LocatedBlock removed : before.subList(2, 4)) {
      long id = removed.getBlock().getBlockId();
      assertEquals(0, count("SELECT count(*) FROM block_lookup WHERE block_id = " + id));
      Await.until("every replica of removed block " + id + " is deleted", Duration.ofSeconds(30),
          () -> holders(removed.getBlock().getBlockPoolId(), id).isEmpty());
    }
    assertEquals(3, holders(before.get(1).getBlock().getBlockPoolId(), before.get(1).getBlock().getBlockId())
        .size(), "the kept blocks keep their replicas");

    assertTrue(fs.truncate(path, 0), "to zero: every block goes");
    assertEquals(0, fs.getFileStatus(path).getLen());
    assertEquals(0, count("SELECT count(*) FROM blocks WHERE inode_id = " + inode));
    assertTrue(fs.truncate(path, 0), "truncating to the length the file has changes nothing");
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(90)
  void truncateInsideABlockCutsItsReplicasThroughABlockRecovery() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/truncate/inside");
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 5000, 2);
    write(path, data);
    long inode = fs.getClient().getFileInfo(path.toString()).getFileId();
    LocatedBlock cutBlock = fs.getClient().getLocatedBlocks(path.toString(), 0).get(1);
    long originalStamp = cutBlock.getBlock().getGenerationStamp();
    int newLength = BLOCK_SIZE + 1234;

    try (RecoveryGate gate = RecoveryGate.install()) {
      assertFalse(fs.truncate(path, newLength), "the datanodes must cut the block first");

      assertFalse(fs.isFileClosed(path), "the file is open until the block is cut");
      assertEquals(newLength, fs.getFileStatus(path).getLen());
      List<List<String>> blocks = query("SELECT block_id, num_bytes, state, truncate_length FROM blocks WHERE "
          + "inode_id = " + inode + " ORDER BY block_index");
      assertEquals(2, blocks.size(), "the block after the new end went at once: " + blocks);
      assertEquals(List.of(String.valueOf(cutBlock.getBlock().getBlockId()), String.valueOf(BLOCK_SIZE),
          String.valueOf(BlockState.UNDER_RECOVERY.code()), "1234"), blocks.get(1));
      assertEquals(List.of(LeaseLimits.RECOVERY_HOLDER), column("SELECT holder FROM lease_paths WHERE inode_id = "
          + inode));

      assertFalse(fs.truncate(path, newLength), "the same truncate again waits too");
      RemoteException other = assertThrows(RemoteException.class, () -> fs.truncate(path, 10));
      assertEquals(AlreadyBeingCreatedException.class.getName(), other.getClassName());
      assertTrue(other.getMessage().contains("Failed to TRUNCATE_FILE " + path + " for "
          + fs.getClient().getClientName()) && other.getMessage().contains(path + " is being truncated."),
          other.getMessage());
      RemoteException append = assertThrows(RemoteException.class, () -> fs.append(path));
      assertEquals(RecoveryInProgressException.class.getName(), append.getClassName(), append.getMessage());
      assertFalse(fs.recoverLease(path), "recoverLease does not disturb the truncate's recovery");

      Await.until("a datanode started cutting the block", RECOVERY_WAIT, () -> gate.entered() > 0);
      assertFalse(fs.isFileClosed(path));
      gate.open();
      Await.until(path + " is closed", RECOVERY_WAIT, () -> fs.isFileClosed(path));
    }

    assertEquals(newLength, fs.getFileStatus(path).getLen());
    assertArrayEquals(Arrays.copyOf(data, newLength), TestFiles.read(fs, path));
    List<String> block = query("SELECT num_bytes, generation_stamp, recovery_id, state, truncate_length FROM blocks "
        + "WHERE block_id = " + cutBlock.getBlock().getBlockId()).get(0);
    long recoveryId = Long.parseLong(block.get(2));
    assertTrue(recoveryId > originalStamp, "the recovery gave the block a new stamp: " + block);
    assertEquals(List.of("1234", String.valueOf(recoveryId), String.valueOf(recoveryId),
        String.valueOf(BlockState.COMPLETE.code()), String.valueOf(Block.NO_TRUNCATE)), block);
    String bpid = cutBlock.getBlock().getBlockPoolId();
    Await.until("every replica is cut to 1234 bytes at the recovery id", Duration.ofSeconds(20), () -> {
      List<org.apache.hadoop.hdfs.protocol.Block> replicas = holders(bpid, cutBlock.getBlock().getBlockId());
      return replicas.size() == 3 && replicas.stream().allMatch(r -> r.getNumBytes() == 1234
          && r.getGenerationStamp() == recoveryId);
    });
    assertEquals(0, count("SELECT count(*) FROM lease_paths WHERE inode_id = " + inode));

    byte[] more = TestFiles.randomBytes(3000, 3);
    try (FSDataOutputStream out = fs.append(path)) {
      out.write(more);
    }
    assertArrayEquals(concat(Arrays.copyOf(data, newLength), more), TestFiles.read(fs, path));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void truncateRefusalsAreHdfss() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/truncate/errors/file");
    byte[] data = TestFiles.randomBytes(5000, 4);
    write(path, data);

    RemoteException larger = assertThrows(RemoteException.class, () -> fs.truncate(path, 5001));
    assertEquals(HadoopIllegalArgumentException.class.getName(), larger.getClassName());
    assertTrue(larger.getMessage().contains("Cannot truncate to a larger file size. Current size: 5000, truncate "
        + "size: 5001."), larger.getMessage());
    RemoteException negative = assertThrows(RemoteException.class,
        () -> rawNamenode().truncate(path.toString(), -1, fs.getClient().getClientName()));
    assertEquals(HadoopIllegalArgumentException.class.getName(), negative.getClassName());
    assertTrue(negative.getMessage().contains("Cannot truncate to a negative file size: -1."),
        negative.getMessage());
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/truncate/errors");
    // DFSClient.truncate unwraps no FileNotFoundException: users get it as a RemoteException of that class
    RemoteException isDir = assertThrows(RemoteException.class, () -> fs.truncate(dir, 0));
    assertEquals(FileNotFoundException.class.getName(), isDir.getClassName());
    assertTrue(isDir.getMessage().contains("Path is not a file: " + dir), isDir.getMessage());
    RemoteException missing = assertThrows(RemoteException.class,
        () -> fs.truncate(new org.apache.hadoop.fs.Path("/truncate/errors/missing"), 0));
    assertEquals(FileNotFoundException.class.getName(), missing.getClassName());
    assertTrue(missing.getMessage().contains("File does not exist: /truncate/errors/missing"),
        missing.getMessage());

    DistributedFileSystem writer = newClient();
    try (FSDataOutputStream out = writer.append(path)) {
      out.write(1);
      out.hflush();
      RemoteException open = assertThrows(RemoteException.class, () -> fs.truncate(path, 10));
      assertEquals(AlreadyBeingCreatedException.class.getName(), open.getClassName());
      assertTrue(open.getMessage().contains("Failed to TRUNCATE_FILE " + path) && open.getMessage().contains(
          "because this file lease is currently owned by " + writer.getClient().getClientName()), open.getMessage());
      RemoteException own = assertThrows(RemoteException.class, () -> writer.truncate(path, 10));
      assertEquals(AlreadyBeingCreatedException.class.getName(), own.getClassName());
      assertTrue(own.getMessage().contains("is already the current lease holder."), own.getMessage());
    }
    assertEquals(5001, fs.getFileStatus(path).getLen(), "every refused truncate left the file alone");
  }

  // ---- concat ----

  @Test
  @Timeout(60)
  void concatMovesTheSourcesBlocksToTheTargetInTheGivenOrder() throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/concat/order");
    byte[] target = TestFiles.randomBytes(100_000, 5);
    byte[] a = TestFiles.randomBytes(70_000, 6);
    byte[] b = TestFiles.randomBytes(10_000, 7);
    byte[] c = TestFiles.randomBytes(BLOCK_SIZE, 8);
    org.apache.hadoop.fs.Path t = new org.apache.hadoop.fs.Path(dir, "t");
    write(t, target);
    write(new org.apache.hadoop.fs.Path(dir, "a"), a);
    write(new org.apache.hadoop.fs.Path(dir, "b"), b);
    write(new org.apache.hadoop.fs.Path(dir, "c"), c);
    long mtimeBefore = fs.getFileStatus(t).getModificationTime();
    long inode = fs.getClient().getFileInfo(t.toString()).getFileId();

    fs.concat(t, new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path(dir, "b"),
        new org.apache.hadoop.fs.Path(dir, "a"), new org.apache.hadoop.fs.Path(dir, "c")});

    byte[] expected = concat(target, b, a, c);
    FileStatus[] listing = fs.listStatus(dir);
    assertEquals(1, listing.length, "the sources are gone: " + Arrays.toString(listing));
    assertEquals(1, fs.getClient().getFileInfo(dir.toString()).getChildrenNum(), "the directory counts one child");
    assertEquals(expected.length, fs.getFileStatus(t).getLen());
    assertTrue(fs.getFileStatus(t).getModificationTime() >= mtimeBefore);
    assertTrue(fs.isFileClosed(t));
    assertArrayEquals(expected, TestFiles.read(fs, t));
    assertEquals(List.of("65536", "34464", "10000", "65536", "4464", "65536"), column("SELECT num_bytes FROM "
        + "blocks WHERE inode_id = " + inode + " ORDER BY block_index"));
    assertEquals(6, count("SELECT count(*) FROM block_lookup WHERE inode_id = " + inode));
    assertEquals(18, count("SELECT count(*) FROM replicas WHERE inode_id = " + inode));
    assertEquals(6, fs.getFileBlockLocations(t, 0, expected.length).length);
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));

    Configuration composite = new Configuration(CLUSTER.cluster().conf());
    composite.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    try (FileSystem client = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), composite)) {
      FileChecksum checksum = client.getFileChecksum(t);
      assertInstanceOf(CompositeCrcFileChecksum.class, checksum);
      CRC32C crc = new CRC32C();
      crc.update(expected);
      assertEquals((int) crc.getValue(), ByteBuffer.wrap(checksum.getBytes()).getInt(),
          "the datanodes serve the moved blocks as the target's");
    }

    byte[] more = TestFiles.randomBytes(2000, 9);
    try (FSDataOutputStream out = fs.append(t)) {
      out.write(more);
    }
    assertArrayEquals(concat(expected, more), TestFiles.read(fs, t));
  }

  /**
   * A datanode's report of a source's block can look the block up before concat moves it and reach the source's
   * transaction after: the source is gone, but the block is the target's now, so its replica must be kept (it was
   * deleted as garbage, and the target lost its data: FaultInjectionTest saw it). The late report is applied to the
   * target instead.
   */
  @Test
  @Timeout(60)
  void aReportRacingConcatFollowsTheBlockToTheTargetAndKeepsItsReplica() throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/concat/race");
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(dir, "t");
    org.apache.hadoop.fs.Path source = new org.apache.hadoop.fs.Path(dir, "s");
    byte[] first = TestFiles.randomBytes(3000, 21);
    byte[] second = TestFiles.randomBytes(4000, 22);
    write(target, first);
    write(source, second);
    long sourceInode = fs.getClient().getFileInfo(source.toString()).getFileId();
    long targetInode = fs.getClient().getFileInfo(target.toString()).getFileId();
    List<String> block = query("SELECT block_id, generation_stamp, num_bytes FROM blocks WHERE inode_id = "
        + sourceInode).get(0);
    long blockId = Long.parseLong(block.get(0));
    List<String> holder = query("SELECT s.datanode_uuid, s.storage_id FROM replicas r JOIN storages s ON "
        + "s.storage_id = r.storage_id WHERE r.block_id = " + blockId + " ORDER BY s.storage_id").get(0);
    ReportedReplica late = new ReportedReplica(blockId, Long.parseLong(block.get(1)), Long.parseLong(block.get(2)),
        ReportedReplica.Kind.FINALIZED);

    fs.concat(target, new org.apache.hadoop.fs.Path[] {source});
    TransactionRunner runner = CLUSTER.cluster().nameNode(0).runner();
    List<ReportedReplica> moved = runner.run(CLUSTER.cluster().nameNode(0).replicaReports().applyOp(sourceInode,
        holder.get(0), holder.get(1), List.of(late)));
    assertEquals(List.of(late), moved, "the report is handed back for the block's new file");
    CLUSTER.cluster().nameNode(0).replicaReports().apply(holder.get(0), holder.get(1), List.of(late));

    assertEquals(0, count("SELECT count(*) FROM invalidated_blocks WHERE block_id = " + blockId),
        "no replica of the moved block is scheduled for deletion");
    assertEquals(3, count("SELECT count(*) FROM replicas WHERE inode_id = " + targetInode + " AND block_id = "
        + blockId));
    assertArrayEquals(concat(first, second), TestFiles.read(fs, target));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void concatInAnotherOrderGivesAnotherFile() throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/concat/reversed");
    byte[] target = TestFiles.randomBytes(300, 10);
    byte[] a = TestFiles.randomBytes(200, 11);
    byte[] b = TestFiles.randomBytes(100, 12);
    org.apache.hadoop.fs.Path t = new org.apache.hadoop.fs.Path(dir, "t");
    write(t, target);
    write(new org.apache.hadoop.fs.Path(dir, "a"), a);
    write(new org.apache.hadoop.fs.Path(dir, "b"), b);
    fs.concat(t, new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path(dir, "a"),
        new org.apache.hadoop.fs.Path(dir, "b")});
    assertArrayEquals(concat(target, a, b), TestFiles.read(fs, t));

    org.apache.hadoop.fs.Path u = new org.apache.hadoop.fs.Path(dir, "u");
    write(u, target);
    write(new org.apache.hadoop.fs.Path(dir, "a"), a);
    write(new org.apache.hadoop.fs.Path(dir, "b"), b);
    fs.concat(u, new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path(dir, "b"),
        new org.apache.hadoop.fs.Path(dir, "a")});
    assertArrayEquals(concat(target, b, a), TestFiles.read(fs, u));
  }

  @Test
  @Timeout(60)
  void concatRefusalsAreHdfssAndChangeNothing() throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/concat/errors");
    org.apache.hadoop.fs.Path t = new org.apache.hadoop.fs.Path(dir, "t");
    org.apache.hadoop.fs.Path a = new org.apache.hadoop.fs.Path(dir, "a");
    org.apache.hadoop.fs.Path empty = new org.apache.hadoop.fs.Path(dir, "empty");
    org.apache.hadoop.fs.Path sub = new org.apache.hadoop.fs.Path(dir, "sub");
    org.apache.hadoop.fs.Path elsewhere = new org.apache.hadoop.fs.Path("/concat/elsewhere/x");
    org.apache.hadoop.fs.Path big = new org.apache.hadoop.fs.Path(dir, "big-blocks");
    write(t, TestFiles.randomBytes(1000, 13));
    write(a, TestFiles.randomBytes(2000, 14));
    fs.create(empty).close();
    fs.mkdirs(sub);
    write(elsewhere, TestFiles.randomBytes(10, 15));
    try (FSDataOutputStream out = fs.create(big, true, 4096, (short) 3, 2 * BLOCK_SIZE)) {
      out.write(TestFiles.randomBytes(10, 16));
    }

    assertRefused(IllegalArgumentException.class, "No sources given", t);
    assertRefused(FileNotFoundException.class, "File does not exist: " + dir + "/missing",
        new org.apache.hadoop.fs.Path(dir, "missing"), a);
    assertRefused(FileNotFoundException.class, "File does not exist: " + dir + "/gone", t,
        new org.apache.hadoop.fs.Path(dir, "gone"));
    assertRefused(FileNotFoundException.class, "Path is not a file: " + sub, t, sub);
    assertRefused(HadoopIllegalArgumentException.class, "concat: the src file " + t + " is the same with the "
        + "target file " + t, t, t);
    assertRefused(HadoopIllegalArgumentException.class, "concat: at least two of the source files are the same", t,
        a, a);
    assertRefused(HadoopIllegalArgumentException.class, "concat: source file " + empty
        + " is invalid or empty or underConstruction", t, a, empty);
    assertRefused(HadoopIllegalArgumentException.class, "Source file " + elsewhere + " is not in the same directory "
        + "with the target " + t, t, elsewhere);
    assertRefused(HadoopIllegalArgumentException.class, "concat: source file " + big + " has preferred block size "
        + 2 * BLOCK_SIZE + " which is greater than the target file's preferred block size " + BLOCK_SIZE, t, big);
    try (FSDataOutputStream out = fs.append(a)) {
      out.write(1);
      out.hflush();
      assertRefused(HadoopIllegalArgumentException.class, "concat: source file " + a
          + " is invalid or empty or underConstruction", t, a);
      assertRefused(HadoopIllegalArgumentException.class, "concat: target file " + a + " is under construction",
          a, t);
    }

    assertEquals(1000, fs.getFileStatus(t).getLen(), "no refused concat changed the target");
    assertEquals(2001, fs.getFileStatus(a).getLen());
    assertTrue(fs.exists(empty) && fs.exists(elsewhere) && fs.exists(big));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void aRetriedConcatIsAnsweredFromTheRetryCache() throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/concat/retried");
    byte[] target = TestFiles.randomBytes(500, 17);
    byte[] a = TestFiles.randomBytes(600, 18);
    org.apache.hadoop.fs.Path t = new org.apache.hadoop.fs.Path(dir, "t");
    org.apache.hadoop.fs.Path source = new org.apache.hadoop.fs.Path(dir, "a");
    write(t, target);
    write(source, a);
    ClientProtocol namenode = rawNamenode();
    int callId = 525_252;
    try {
      Client.setCallIdAndRetryCount(callId, 0, null);
      namenode.concat(t.toString(), new String[] {source.toString()});
      Client.setCallIdAndRetryCount(callId, 1, null); // the reply was lost: the client sends the call again
      namenode.concat(t.toString(), new String[] {source.toString()});
    } finally {
      Client.setCallIdAndRetryCountUnprotected(null, 0, null);
    }
    assertArrayEquals(concat(target, a), TestFiles.read(fs, t), "the concat took effect once");
    RemoteException again = assertThrows(RemoteException.class,
        () -> namenode.concat(t.toString(), new String[] {source.toString()}));
    assertEquals(FileNotFoundException.class.getName(), again.getClassName(), "a new call finds the source gone");
  }

  // ---- helpers ----

  private static void assertRefused(Class<? extends Exception> expected, String message,
      org.apache.hadoop.fs.Path target, org.apache.hadoop.fs.Path... sources) {
    IOException error = assertThrows(IOException.class, () -> fs.concat(target, sources));
    String className = error instanceof RemoteException remote ? remote.getClassName() : error.getClass().getName();
    assertEquals(expected.getName(), className, String.valueOf(error.getMessage()));
    assertNotNull(error.getMessage());
    assertTrue(error.getMessage().contains(message), error.getMessage());
  }

  /** The replicas of a block the datanodes hold (one entry per datanode holding it). */
  private static List<org.apache.hadoop.hdfs.protocol.Block> holders(String bpid, long blockId) throws IOException {
    List<org.apache.hadoop.hdfs.protocol.Block> replicas = new ArrayList<>();
    for (DataNode dataNode : CLUSTER.cluster().dataNodes()) {
      try {
        org.apache.hadoop.hdfs.protocol.Block stored = dataNode.getFSDataset().getStoredBlock(bpid, blockId);
        if (stored != null) {
          replicas.add(stored);
        }
      } catch (ReplicaNotFoundException absent) {
        // this datanode holds none
      }
    }
    return replicas;
  }

  private static void write(org.apache.hadoop.fs.Path path, byte[] data) throws IOException {
    TestFiles.write(fs, path, data, BLOCK_SIZE);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      all.writeBytes(part);
    }
    return all.toByteArray();
  }

  private DistributedFileSystem newClient() throws IOException {
    DistributedFileSystem client = (DistributedFileSystem) FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()),
        new Configuration(CLUSTER.cluster().conf()));
    writers.add(client);
    return client;
  }

  /** The namenode's ClientProtocol without Hadoop's retries, so a test chooses each call's id and retry count. */
  private static ClientProtocol rawNamenode() throws IOException {
    return NameNodeProxiesClient.createNonHAProxyWithClientProtocol(CLUSTER.cluster().nameNode(0).address(),
        new Configuration(CLUSTER.cluster().conf()), UserGroupInformation.getCurrentUser(), false, null);
  }

  private static List<List<String>> query(String sql) throws IOException {
    return StoreQueries.rows(CLUSTER.store(), sql);
  }

  private static List<String> column(String sql) throws IOException {
    return StoreQueries.column(CLUSTER.store(), sql);
  }

  private static long count(String sql) throws IOException {
    return StoreQueries.count(CLUSTER.store(), sql);
  }
}
