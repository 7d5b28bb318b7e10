package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.BlockState;
import io.canopy.namenode.NameNodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.MD5MD5CRC32FileChecksum;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxiesClient;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * append on a real cluster (one namenode, three datanodes, replication 3, 64 KiB blocks, a 1 s lease soft limit):
 * partial, full and multi-block appends, NEW_BLOCK, appends after a datanode restart, refusals while another client
 * writes, writers that die in the middle of an append (recovered by another client's append past the soft limit and
 * by recoverLease), the retry cache, {@code hadoop fs -appendToFile}; and the client-side file checksum (both modes),
 * isFileClosed and recoverLease.
 */
class AppendTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final long SOFT_LIMIT_MS = 1000;
  /** How often test writers renew their leases: well within the soft limit. */
  private static final long RENEWAL_MS = 200;
  private static final Duration RECOVERY_WAIT = Duration.ofSeconds(40);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setLong(NameNodeConfig.LEASE_SOFT_LIMIT_MS, SOFT_LIMIT_MS);
    LeaseRecoveryTest.fastLeaseRecovery(conf);
  }).dataNodes(3).awaitLeader().startTimeout(Duration.ofSeconds(120)).build();
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
        // a writer whose file was taken over may fail to close: it is gone either way
      }
    }
    writers.clear();
  }

  @Test
  @Timeout(60)
  void appendsToAPartialBlockReopenItAtANewGenerationStamp() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/partial");
    byte[] original = TestFiles.randomBytes(1000, 1);
    byte[] first = TestFiles.randomBytes(3000, 2);
    byte[] second = TestFiles.randomBytes(7, 3);
    write(path, original);
    long originalStamp = lastBlock(path).getBlock().getGenerationStamp();

    appendTo(fs, path, first);
    appendTo(fs, path, second);

    byte[] expected = concat(original, first, second);
    assertEquals(expected.length, fs.getFileStatus(path).getLen());
    assertArrayEquals(expected, TestFiles.read(fs, path));
    assertTrue(fs.isFileClosed(path));
    long inode = fs.getClient().getFileInfo(path.toString()).getFileId();
    List<List<String>> blocks = query("SELECT num_bytes, generation_stamp, state FROM blocks WHERE inode_id = "
        + inode);
    assertEquals(1, blocks.size(), "both appends went into the partial block: " + blocks);
    assertEquals(String.valueOf(expected.length), blocks.get(0).get(0));
    assertTrue(Long.parseLong(blocks.get(0).get(1)) > originalStamp, "the appending client bumped the stamp");
    assertEquals(String.valueOf(BlockState.COMPLETE.code()), blocks.get(0).get(2));
    Await.until("three replicas recorded", Duration.ofSeconds(10),
        () -> count("SELECT count(*) FROM replicas WHERE inode_id = " + inode) == 3);
    assertEquals(0, count("SELECT count(*) FROM uc_replicas WHERE inode_id = " + inode));
    assertEquals(0, count("SELECT count(*) FROM lease_paths WHERE inode_id = " + inode));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(60)
  void largeAppendsFillTheLastBlockThenAddBlocks() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/large");
    byte[] original = TestFiles.randomBytes(BLOCK_SIZE + BLOCK_SIZE / 2, 4);
    byte[] appended = TestFiles.randomBytes(3 * BLOCK_SIZE + 100, 5);
    write(path, original);

    appendTo(fs, path, appended);

    byte[] expected = concat(original, appended);
    assertArrayEquals(expected, TestFiles.read(fs, path));
    List<String> lengths = column("SELECT num_bytes FROM blocks WHERE inode_id = "
        + fs.getClient().getFileInfo(path.toString()).getFileId() + " ORDER BY block_index");
    String full = String.valueOf(BLOCK_SIZE);
    assertEquals(List.of(full, full, full, full, String.valueOf(expected.length - 4 * BLOCK_SIZE)), lengths,
        "the partial block was filled before new blocks were added");
  }

  @Test
  @Timeout(60)
  void appendingAtABlockBoundaryStartsANewBlock() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/boundary");
    byte[] original = TestFiles.randomBytes(2 * BLOCK_SIZE, 6);
    byte[] appended = TestFiles.randomBytes(1000, 7);
    write(path, original);

    ClientProtocol namenode = rawNamenode();
    String holder = "DFSClient_boundary_probe";
    LastBlockWithStatus opened = namenode.append(path.toString(), holder,
        new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND)));
    assertNull(opened.getLastBlock(), "a full last block is not handed back (the client adds a block)");
    assertEquals(2L * BLOCK_SIZE, opened.getFileStatus().getLen());
    // the client's first addBlock names no previous block, as after an append at a boundary in HDFS
    LocatedBlock added = namenode.addBlock(path.toString(), holder, null, null, opened.getFileStatus().getFileId(),
        null, null);
    assertEquals(2L * BLOCK_SIZE, added.getStartOffset());
    LocatedBlock retried = namenode.addBlock(path.toString(), holder, null, null,
        opened.getFileStatus().getFileId(), null, null);
    assertEquals(added.getBlock(), retried.getBlock(), "a retried first addBlock gets the same block");
    namenode.abandonBlock(added.getBlock(), opened.getFileStatus().getFileId(), path.toString(), holder);
    assertTrue(namenode.complete(path.toString(), holder, null, opened.getFileStatus().getFileId()));

    appendTo(fs, path, appended);
    assertArrayEquals(concat(original, appended), TestFiles.read(fs, path));
    assertEquals(List.of(String.valueOf(BLOCK_SIZE), String.valueOf(BLOCK_SIZE), "1000"),
        column("SELECT num_bytes FROM blocks WHERE inode_id = " + opened.getFileStatus().getFileId()
            + " ORDER BY block_index"));
  }

  @Test
  @Timeout(60)
  void newBlockFlagStartsANewBlockAfterAPartialOne() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/new-block");
    byte[] original = TestFiles.randomBytes(1000, 8);
    byte[] appended = TestFiles.randomBytes(500, 9);
    write(path, original);

    try (FSDataOutputStream out = fs.append(path, EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK), 4096,
        null)) {
      out.write(appended);
    }

    assertArrayEquals(concat(original, appended), TestFiles.read(fs, path));
    assertEquals(List.of("1000", "500"), column("SELECT num_bytes FROM blocks WHERE inode_id = "
        + fs.getClient().getFileInfo(path.toString()).getFileId() + " ORDER BY block_index"));
    assertEquals(2, fs.getFileBlockLocations(path, 0, 1500).length);
  }

  @Test
  @Timeout(60)
  void appendsToAnEmptyFile() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/empty");
    fs.create(path).close();
    byte[] appended = TestFiles.randomBytes(256, 10);
    appendTo(fs, path, appended);
    assertArrayEquals(appended, TestFiles.read(fs, path));
  }

  @Test
  @Timeout(90)
  void appendsAfterADatanodeRestart() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/after-restart");
    byte[] original = TestFiles.randomBytes(5000, 11);
    write(path, original);
    String uuid = CLUSTER.cluster().dataNodes().get(1).getDatanodeUuid();
    // the file closes once one replica is reported; the others' reports may still be on their way
    Await.until("the datanode to restart holds the block", Duration.ofSeconds(20),
        () -> Arrays.stream(lastBlock(path).getLocations()).anyMatch(d -> d.getDatanodeUuid().equals(uuid)));
    CLUSTER.cluster().restartDataNode(1);
    Await.until("the restarted datanode registered again", Duration.ofSeconds(60),
        () -> CLUSTER.cluster().dataNodes().get(1).isDatanodeFullyStarted());

    byte[] appended = TestFiles.randomBytes(4000, 12);
    appendTo(fs, path, appended);

    assertArrayEquals(concat(original, appended), TestFiles.read(fs, path));
    Await.until("the appended block is back on three datanodes", Duration.ofSeconds(20),
        () -> lastBlock(path).getLocations().length == 3);
  }

  @Test
  @Timeout(60)
  void anotherClientCannotAppendWhileTheFileIsBeingWritten() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/concurrent");
    write(path, TestFiles.randomBytes(100, 13));
    DistributedFileSystem writer = newClient();
    String writerName = writer.getClient().getClientName();
    try (FSDataOutputStream out = writer.append(path)) {
      out.write(TestFiles.randomBytes(10, 14));
      out.hflush();
      writer.getClient().renewLease(); // the soft limit is short here: the checks below must find the writer live
      assertFalse(fs.isFileClosed(path), "the file is open while appended to");

      RemoteException other = assertThrows(RemoteException.class, () -> fs.append(path));
      assertEquals(AlreadyBeingCreatedException.class.getName(), other.getClassName());
      assertTrue(other.getMessage().contains("Failed to APPEND_FILE " + path + " for "
          + fs.getClient().getClientName()) && other.getMessage().contains(
          "because this file lease is currently owned by " + writerName), other.getMessage());
      RemoteException self = assertThrows(RemoteException.class, () -> writer.append(path));
      assertEquals(AlreadyBeingCreatedException.class.getName(), self.getClassName());
      assertTrue(self.getMessage().contains(writerName + " is already the current lease holder."),
          self.getMessage());
      RemoteException create = assertThrows(RemoteException.class, () -> fs.create(path, false));
      assertEquals(AlreadyBeingCreatedException.class.getName(), create.getClassName());
    }
    assertTrue(fs.isFileClosed(path));
    assertEquals(110, fs.getFileStatus(path).getLen());
  }

  @Test
  void appendRefusesMissingFilesAndDirectories() throws Exception {
    org.apache.hadoop.fs.Path missing = new org.apache.hadoop.fs.Path("/append/errors/missing");
    FileNotFoundException notFound = assertThrows(FileNotFoundException.class, () -> fs.append(missing));
    assertTrue(notFound.getMessage().contains("Failed to append to non-existent file " + missing + " for client "),
        notFound.getMessage());
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/append/errors/dir");
    fs.mkdirs(dir);
    RemoteException isDir = assertThrows(RemoteException.class, () -> fs.append(dir));
    assertEquals(FileAlreadyExistsException.class.getName(), isDir.getClassName());
    assertTrue(isDir.getMessage().contains("Cannot append to directory " + dir + "; already exists as a directory."),
        isDir.getMessage());
    assertFalse(fs.exists(missing), "a failed append creates nothing");
  }

  @Test
  @Timeout(90)
  void anAppenderThatDiesIsRecoveredByTheNextAppenderPastTheSoftLimit() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/dead-appender");
    byte[] original = TestFiles.randomBytes(1500, 15);
    write(path, original);
    long originalStamp = lastBlock(path).getBlock().getGenerationStamp();
    long inode = fs.getClient().getFileInfo(path.toString()).getFileId();

    // The appender hflushes 700 bytes (the datanodes hold them at a new stamp), writes 300 more and dies.
    DistributedFileSystem appender = newClient();
    byte[] flushed = TestFiles.randomBytes(700, 16);
    FSDataOutputStream out = appender.append(path);
    out.write(flushed);
    out.hflush();
    out.write(TestFiles.randomBytes(300, 17));
    appender.getClient().renewLease();
    RemoteException owned = assertThrows(RemoteException.class, () -> fs.append(path));
    assertEquals(AlreadyBeingCreatedException.class.getName(), owned.getClassName(), owned.getMessage());
    appender.getClient().closeOutputStreams(true);
    appender.close(); // renews no more
    long diedAt = System.currentTimeMillis();
    List<String> appending = query("SELECT state, generation_stamp FROM blocks WHERE inode_id = " + inode).get(0);
    assertEquals(String.valueOf(BlockState.UNDER_CONSTRUCTION.code()), appending.get(0));
    assertTrue(Long.parseLong(appending.get(1)) > originalStamp, "the appended replicas are at a new stamp");

    Thread.sleep(Math.max(0, diedAt + SOFT_LIMIT_MS + 300 - System.currentTimeMillis()));
    RemoteException recovering = assertThrows(RemoteException.class, () -> fs.append(path));
    assertEquals(RecoveryInProgressException.class.getName(), recovering.getClassName());
    assertTrue(recovering.getMessage().contains("Failed to APPEND_FILE " + path + " for "
        + fs.getClient().getClientName()) && recovering.getMessage().contains(
        "because lease recovery is in progress. Try again later."), recovering.getMessage());

    Await.until(path + " is closed by the recovery", RECOVERY_WAIT, () -> fs.isFileClosed(path));
    byte[] recovered = concat(original, flushed);
    assertArrayEquals(recovered, TestFiles.read(fs, path), "the file ends at the dead appender's last hflush");
    List<String> block = query("SELECT generation_stamp, recovery_id FROM blocks WHERE inode_id = " + inode).get(0);
    assertEquals(block.get(1), block.get(0), "the recovery closed it at its recovery id: " + block);

    byte[] more = TestFiles.randomBytes(900, 18);
    appendTo(fs, path, more);
    assertArrayEquals(concat(recovered, more), TestFiles.read(fs, path));
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  @Timeout(90)
  void anAppenderThatDiesBeforeWritingIsRecoveredByRecoverLease() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/dead-before-writing");
    byte[] original = TestFiles.randomBytes(2500, 19);
    write(path, original);
    DistributedFileSystem appender = newClient();
    appender.append(path); // opened, nothing written: the replicas are still finalized at the old stamp
    appender.getClient().closeOutputStreams(true);
    appender.close();
    assertFalse(fs.isFileClosed(path));

    assertFalse(fs.recoverLease(path), "the reopened block needs a recovery");
    Await.until(path + " is closed", RECOVERY_WAIT, () -> fs.recoverLease(path));
    assertTrue(fs.isFileClosed(path));
    assertArrayEquals(original, TestFiles.read(fs, path));
    appendTo(fs, path, TestFiles.randomBytes(10, 20));
    assertEquals(2510, fs.getFileStatus(path).getLen());
  }

  @Test
  @Timeout(60)
  void aRetriedAppendIsAnsweredFromTheRetryCache() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/retried");
    write(path, TestFiles.randomBytes(3000, 21));
    // the append reopens the block on the replicas reported so far: wait for all three, as asserted below
    Await.until("the block is on three datanodes", Duration.ofSeconds(20),
        () -> lastBlock(path).getLocations().length == 3);
    ClientProtocol namenode = rawNamenode();
    String holder = "DFSClient_retried_append";
    EnumSetWritable<CreateFlag> flags = new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND));
    int callId = 424_242;
    LastBlockWithStatus first;
    LastBlockWithStatus retried;
    try {
      Client.setCallIdAndRetryCount(callId, 0, null);
      first = namenode.append(path.toString(), holder, flags);
      Client.setCallIdAndRetryCount(callId, 1, null); // the same call again, as a client whose reply was lost
      retried = namenode.append(path.toString(), holder, flags);
    } finally {
      Client.setCallIdAndRetryCountUnprotected(null, 0, null);
    }
    assertNotNull(first.getLastBlock());
    assertEquals(first.getLastBlock().getBlock(), retried.getLastBlock().getBlock());
    assertEquals(first.getLastBlock().getStartOffset(), retried.getLastBlock().getStartOffset());
    assertEquals(3, retried.getLastBlock().getLocations().length);
    assertEquals(first.getFileStatus().getFileId(), retried.getFileStatus().getFileId());
    assertEquals(3000, retried.getFileStatus().getLen());
    // a new call (not a retry) is a second append by the lease holder: refused
    RemoteException again = assertThrows(RemoteException.class,
        () -> namenode.append(path.toString(), holder, flags));
    assertEquals(AlreadyBeingCreatedException.class.getName(), again.getClassName());
    assertTrue(namenode.recoverLease(path.toString(), "DFSClient_cleanup") || awaitRecovered(path));
  }

  @Test
  @Timeout(60)
  void fsShellAppendToFileAppendsLocalFiles() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/append/shell");
    byte[] original = "first line\n".getBytes(StandardCharsets.UTF_8);
    write(path, original);
    Path one = Files.write(CLUSTER.directory().resolve("one.txt"), "second line\n".getBytes(StandardCharsets.UTF_8));
    Path two = Files.write(CLUSTER.directory().resolve("two.txt"), TestFiles.randomBytes(70_000, 22));
    FsShell shell = new FsShell(new Configuration(CLUSTER.cluster().conf()));
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream previous = System.err;
    int exit;
    try {
      System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
      exit = ToolRunner.run(shell, new String[] {"-appendToFile", one.toString(), two.toString(),
          CLUSTER.cluster().uri() + path});
    } finally {
      System.setErr(previous);
      shell.close();
    }
    assertEquals(0, exit, "hadoop fs -appendToFile failed: " + errors.toString(StandardCharsets.UTF_8));
    assertArrayEquals(concat(original, Files.readAllBytes(one), Files.readAllBytes(two)), TestFiles.read(fs, path));
  }

  // ---- getFileChecksum (computed by the client from the datanodes), isFileClosed, recoverLease ----

  @Test
  @Timeout(60)
  void fileChecksumsAgreeForTheSameBytesAndDifferOtherwise() throws Exception {
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 3000, 23);
    org.apache.hadoop.fs.Path one = new org.apache.hadoop.fs.Path("/checksum/one");
    org.apache.hadoop.fs.Path same = new org.apache.hadoop.fs.Path("/checksum/same");
    org.apache.hadoop.fs.Path appended = new org.apache.hadoop.fs.Path("/checksum/appended");
    org.apache.hadoop.fs.Path other = new org.apache.hadoop.fs.Path("/checksum/other");
    write(one, data);
    write(same, data);
    write(appended, Arrays.copyOf(data, BLOCK_SIZE + 100));
    appendTo(fs, appended, Arrays.copyOfRange(data, BLOCK_SIZE + 100, data.length));
    byte[] changed = data.clone();
    changed[BLOCK_SIZE + 17] ^= 1;
    write(other, changed);

    FileChecksum checksum = fs.getFileChecksum(one);
    assertInstanceOf(MD5MD5CRC32FileChecksum.class, checksum, "HDFS's default combine mode");
    assertEquals(checksum, fs.getFileChecksum(same));
    assertEquals(checksum, fs.getFileChecksum(appended), "an appended file sums like one written at once");
    assertNotEquals(checksum, fs.getFileChecksum(other));
    assertNotEquals(checksum, fs.getFileChecksum(one, BLOCK_SIZE), "a prefix sums differently");
  }

  @Test
  @Timeout(60)
  void compositeCrcChecksumsAreTheCrcOfTheWholeFile() throws Exception {
    byte[] data = TestFiles.randomBytes(BLOCK_SIZE + 5000, 24);
    org.apache.hadoop.fs.Path small = new org.apache.hadoop.fs.Path("/checksum/composite-64k");
    org.apache.hadoop.fs.Path large = new org.apache.hadoop.fs.Path("/checksum/composite-128k");
    try (FSDataOutputStream out = fs.create(small, true, 4096, (short) 3, BLOCK_SIZE)) {
      out.write(data);
    }
    try (FSDataOutputStream out = fs.create(large, true, 4096, (short) 3, 2 * BLOCK_SIZE)) {
      out.write(data);
    }
    Configuration composite = new Configuration(CLUSTER.cluster().conf());
    composite.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    try (FileSystem client = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), composite)) {
      FileChecksum checksum = client.getFileChecksum(small);
      assertInstanceOf(CompositeCrcFileChecksum.class, checksum);
      CRC32C crc = new CRC32C();
      crc.update(data);
      assertEquals((int) crc.getValue(), ByteBuffer.wrap(checksum.getBytes()).getInt(),
          "the composite CRC is the CRC32C of the file's bytes");
      assertEquals(checksum, client.getFileChecksum(large), "whatever the block size");
    }
  }

  @Test
  @Timeout(60)
  void isFileClosedAndRecoverLeaseFollowTheWriter() throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/closed/file");
    try (FSDataOutputStream out = fs.create(path, true, 4096, (short) 3, BLOCK_SIZE)) {
      out.write(TestFiles.randomBytes(100, 25));
      out.hflush();
      assertFalse(fs.isFileClosed(path), "open while being written");
    }
    assertTrue(fs.isFileClosed(path));
    assertTrue(fs.recoverLease(path), "a closed file has nothing to recover");
    assertTrue(fs.isFileClosed(path));
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/closed");
    FileNotFoundException isDir = assertThrows(FileNotFoundException.class, () -> fs.isFileClosed(dir));
    assertTrue(isDir.getMessage().contains("Path is not a file: " + dir), isDir.getMessage());
    FileNotFoundException recoverDir = assertThrows(FileNotFoundException.class, () -> fs.recoverLease(dir));
    assertTrue(recoverDir.getMessage().contains("Path is not a file: " + dir), recoverDir.getMessage());
    org.apache.hadoop.fs.Path missing = new org.apache.hadoop.fs.Path("/closed/no");
    FileNotFoundException closedMissing = assertThrows(FileNotFoundException.class, () -> fs.isFileClosed(missing));
    assertTrue(closedMissing.getMessage().contains("File does not exist: " + missing), closedMissing.getMessage());
    FileNotFoundException recoverMissing = assertThrows(FileNotFoundException.class, () -> fs.recoverLease(missing));
    assertTrue(recoverMissing.getMessage().contains("File does not exist: " + missing), recoverMissing.getMessage());
  }

  // ---- helpers ----

  private static void write(org.apache.hadoop.fs.Path path, byte[] data) throws IOException {
    TestFiles.write(fs, path, data, BLOCK_SIZE);
  }

  private static void appendTo(FileSystem client, org.apache.hadoop.fs.Path path, byte[] data) throws IOException {
    try (FSDataOutputStream out = client.append(path)) {
      out.write(data);
    }
  }

  private static LocatedBlock lastBlock(org.apache.hadoop.fs.Path path) throws IOException {
    return fs.getClient().getLocatedBlocks(path.toString(), 0).getLastLocatedBlock();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      all.writeBytes(part);
    }
    return all.toByteArray();
  }

  /**
   * A client of its own (not the cached one), closed after the test, that renews its lease well within the short soft
   * limit (HDFS's client renews every 30 s).
   */
  private DistributedFileSystem newClient() throws IOException {
    DistributedFileSystem client = (DistributedFileSystem) FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()),
        new Configuration(CLUSTER.cluster().conf()));
    client.getClient().getLeaseRenewer().setRenewalTime(RENEWAL_MS);
    writers.add(client);
    return client;
  }

  /** The namenode's ClientProtocol without Hadoop's retries, so a test chooses each call's id and retry count. */
  private static ClientProtocol rawNamenode() throws IOException {
    return NameNodeProxiesClient.createNonHAProxyWithClientProtocol(CLUSTER.cluster().nameNode(0).address(),
        new Configuration(CLUSTER.cluster().conf()), UserGroupInformation.getCurrentUser(), false, null);
  }

  private static boolean awaitRecovered(org.apache.hadoop.fs.Path path) throws Exception {
    Await.until(path + " is closed", RECOVERY_WAIT, () -> fs.recoverLease(path));
    return true;
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
