package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.TestFiles.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyClientCalls;
import io.canopy.client.CanopyFileSystem;
import io.canopy.namenode.SmallFilesConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Small files stored in the database (design 016) through Canopy's client, {@link CanopyFileSystem}: the sizes around
 * the threshold land where they should (database or datanodes) and read back byte for byte; hflush and growth switch
 * to datanodes; append, truncate and concat in the database; quotas, content summary, deletes and renames; a restart;
 * and the bad inputs of Canopy's protocol. Every test ends with the namespace invariants (small files included).
 */
class SmallFilesTest {
  /** A threshold well below the default, so the sizes around it stay quick to write. */
  private static final int THRESHOLD = 8 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt(SmallFilesConfig.MAX_BYTES, THRESHOLD)).dataNodes(3).build();

  private final List<FileSystem> opened = new ArrayList<>();

  @AfterEach
  void closeClientsAndCheckInvariants() throws IOException {
    for (FileSystem fs : opened) {
      fs.close();
    }
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  /** A Canopy client of namenode 0, as {@code canopy up}'s client configuration makes one. */
  private FileSystem canopyClient() throws IOException {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    FileSystem fs = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), conf);
    opened.add(fs);
    assertTrue(fs instanceof CanopyFileSystem, "fs.hdfs.impl picks Canopy's client");
    return fs;
  }

  private static byte[] write(FileSystem fs, Path path, int length, long seed) throws IOException {
    byte[] data = randomBytes(length, seed);
    TestFiles.write(fs, path, data);
    return data;
  }

  /** The ids of the file's blocks, as the namenode locates them. */
  private static List<Long> blockIds(Path path) throws IOException {
    LocatedBlocks blocks = CLUSTER.fileSystem().getClient().getLocatedBlocks(path.toString(), 0);
    List<Long> ids = new ArrayList<>();
    for (LocatedBlock block : blocks.getLocatedBlocks()) {
      ids.add(block.getBlock().getBlockId());
    }
    return ids;
  }

  /** The small-file endpoint's database reads so far on namenode 0. */
  private static long endpointTransactions() {
    return CLUSTER.cluster().nameNode(0).runner().metrics().snapshot()
        .getOrDefault("readSmallBlock", io.canopy.namenode.tx.OperationMetrics.Snapshot.ZERO).operations();
  }

  private static long inodeId(Path path) throws IOException {
    return CLUSTER.fileSystem().getClient().getFileInfo(path.toString()).getFileId();
  }

  /** The tier that holds the file's bytes: "inline", "data" or "none" (from the operators' view, canopy sql's). */
  private static String tier(Path path) throws IOException {
    long id = inodeId(path);
    List<String> tiers = StoreQueries.column(CLUSTER.store(), "SELECT tier FROM small_files WHERE inode_id = " + id);
    return tiers.isEmpty() ? "none" : String.join(",", tiers);
  }

  @Test
  void sizesAroundTheThresholdRoundTripAndLandInTheDatabaseUpToIt() throws Exception {
    FileSystem fs = canopyClient();
    int[] sizes = {0, 1, 1024, 1025, THRESHOLD - 1, THRESHOLD, THRESHOLD + 1};
    String[] tiers = {"none", "inline", "inline", "data", "data", "data", "none"};
    for (int i = 0; i < sizes.length; i++) {
      Path file = path("/roundtrip/f" + sizes[i]);
      byte[] data = write(fs, file, sizes[i], i);
      assertArrayEquals(data, TestFiles.read(fs, file), "Canopy's client reads " + file);
      assertEquals(sizes[i], fs.getFileStatus(file).getLen());
      assertEquals(tiers[i], tier(file), "tier of " + sizes[i] + " bytes");
      List<Long> ids = blockIds(file);
      if (sizes[i] == 0) {
        assertEquals(List.of(), ids, "an empty file has no block");
      } else if (sizes[i] <= THRESHOLD) {
        assertEquals(List.of(-inodeId(file)), ids, "one database-resident block named after the file");
      } else {
        assertEquals(1, ids.size());
        assertTrue(ids.get(0) > 0, "past the threshold the file goes to datanodes: " + ids);
      }
    }
  }

  @Test
  void stockClientsReadSmallFilesByteForByteWithTheChecksumsOfTheSameBytesOnDatanodes() throws Exception {
    FileSystem fs = canopyClient();
    DistributedFileSystem stock = CLUSTER.fileSystem();
    for (int size : new int[] {1, 511, 512, 1024, 4096, THRESHOLD - 1, THRESHOLD}) {
      Path inDatabase = path("/stock/db-" + size);
      byte[] data = write(fs, inDatabase, size, size);
      Path onDatanodes = path("/stock/dn-" + size);
      TestFiles.write(stock, onDatanodes, data);
      assertTrue(blockIds(inDatabase).get(0) < 0 && blockIds(onDatanodes).get(0) > 0);
      long endpointReads = endpointTransactions();
      assertArrayEquals(data, TestFiles.read(stock, inDatabase), "the stock client reads " + inDatabase);
      assertEquals(endpointReads, endpointTransactions(), "the read that follows getBlockLocations needs no "
          + "transaction of its own: getBlockLocations left the bytes for it");
      try (FSDataInputStream in = stock.open(inDatabase)) {
        byte[] tail = new byte[Math.min(size, 100)];
        in.readFully(size - tail.length, tail);
        assertArrayEquals(java.util.Arrays.copyOfRange(data, size - tail.length, size), tail, "positioned read");
      }
      assertEquals(stock.getFileChecksum(onDatanodes), stock.getFileChecksum(inDatabase),
          "getFileChecksum of " + size + " bytes, database or datanodes");
      assertEquals(stock.getFileChecksum(onDatanodes), fs.getFileChecksum(inDatabase), "through Canopy's client");
    }
    // unmodified FsShell, without Canopy's client
    Path text = path("/stock/hello.txt");
    TestFiles.write(fs, text, "small and stored with its metadata\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Configuration shellConf = new Configuration(CLUSTER.cluster().conf());
    shellConf.set("fs.defaultFS", CLUSTER.cluster().uri());
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream originalOut = System.out;
    int exit;
    try (java.io.PrintStream out = new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8)) {
      System.setOut(out);
      exit = org.apache.hadoop.util.ToolRunner.run(shellConf, new org.apache.hadoop.fs.FsShell(),
          new String[] {"-cat", text.toString()});
    } finally {
      System.setOut(originalOut);
    }
    assertEquals(0, exit);
    assertEquals("small and stored with its metadata\n", captured.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void readsSeekAndPositionedReadsOfASmallFileBehaveAsHdfsStreams() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/streams/f");
    byte[] data = write(fs, file, 3000, 7);
    try (FSDataInputStream in = fs.open(file)) {
      in.seek(1000);
      assertEquals(data[1000] & 0xff, in.read());
      byte[] range = new byte[100];
      in.readFully(2000, range);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 2000, 2100), range);
      assertEquals(1001, in.getPos(), "a positioned read leaves the position alone");
      assertThrows(java.io.EOFException.class, () -> in.seek(3001));
      assertThrows(java.io.EOFException.class, () -> in.readFully(2950, new byte[100]));
      in.seek(3000);
      assertEquals(-1, in.read());
    }
  }

  @Test
  void hflushMidFileAndGrowthPastTheThresholdWriteThroughDatanodes() throws Exception {
    FileSystem fs = canopyClient();
    Path flushed = path("/switch/flushed");
    byte[] first = randomBytes(500, 1);
    byte[] second = randomBytes(700, 2);
    try (FSDataOutputStream out = fs.create(flushed)) {
      out.write(first);
      out.hflush();
      try (FSDataInputStream in = CLUSTER.fileSystem().open(flushed)) {
        byte[] visible = new byte[first.length];
        IOUtils.readFully(in, visible, 0, visible.length);
        assertArrayEquals(first, visible, "hflush makes the bytes visible to other readers");
      }
      out.write(second);
    }
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(first);
    both.write(second);
    assertArrayEquals(both.toByteArray(), TestFiles.read(fs, flushed));
    assertTrue(blockIds(flushed).get(0) > 0, "a flushed file is on datanodes");
    assertEquals("none", tier(flushed));

    Path grown = path("/switch/grown");
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    try (FSDataOutputStream out = fs.create(grown)) {
      for (int i = 0; i < 5; i++) {
        byte[] piece = randomBytes(THRESHOLD / 3, 10 + i);
        out.write(piece);
        expected.write(piece);
      }
      assertEquals(expected.size(), out.getPos());
    }
    assertArrayEquals(expected.toByteArray(), TestFiles.read(fs, grown));
    assertArrayEquals(expected.toByteArray(), TestFiles.read(CLUSTER.fileSystem(), grown), "the stock client too");
    assertTrue(blockIds(grown).get(0) > 0);
  }

  @Test
  void appendStaysInTheDatabaseUnderTheThresholdAndMovesOnToDatanodesPastIt() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/append/f");
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(write(fs, file, 1000, 1));
    for (int i = 0; i < 2; i++) {
      byte[] more = randomBytes(1500, 2 + i);
      try (FSDataOutputStream out = fs.append(file)) {
        assertEquals(expected.size(), out.getPos());
        out.write(more);
      }
      expected.write(more);
      assertArrayEquals(expected.toByteArray(), TestFiles.read(fs, file));
      assertEquals(List.of(-inodeId(file)), blockIds(file), "still one database-resident block");
    }
    assertEquals("data", tier(file));
    byte[] past = randomBytes(THRESHOLD, 9);
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(past);
    }
    expected.write(past);
    List<Long> ids = blockIds(file);
    assertEquals(2, ids.size(), "the database-resident bytes stay its first block, the rest is on datanodes");
    assertEquals(-inodeId(file), ids.get(0));
    assertTrue(ids.get(1) > 0);
    assertEquals(expected.size(), fs.getFileStatus(file).getLen());
    assertArrayEquals(expected.toByteArray(), TestFiles.read(fs, file), "the database block, then the datanodes'");
    assertArrayEquals(expected.toByteArray(), TestFiles.read(CLUSTER.fileSystem(), file), "the stock client too");
    byte[] more = randomBytes(10, 11);
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(more);
    }
    expected.write(more);
    assertEquals(expected.size(), fs.getFileStatus(file).getLen(), "once on datanodes it stays there");
    assertEquals(2, blockIds(file).size());
  }

  @Test
  void truncateAndConcatOfSmallFilesWorkOnTheBytesInTheDatabase() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/cut/f");
    byte[] data = write(fs, file, 3000, 1);
    assertTrue(fs.truncate(file, 1200), "a database-resident file is cut at once");
    assertArrayEquals(java.util.Arrays.copyOf(data, 1200), TestFiles.read(fs, file));
    assertEquals(1200, fs.getFileStatus(file).getLen());
    assertTrue(fs.truncate(file, 0));
    assertEquals(0, fs.getFileStatus(file).getLen());
    assertEquals(List.of(), blockIds(file));
    assertEquals("none", tier(file));

    Path target = path("/concat/target");
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(write(fs, target, 100, 2));
    Path[] sources = {path("/concat/s1"), path("/concat/s2")};
    for (int i = 0; i < sources.length; i++) {
      expected.write(write(fs, sources[i], 1000 * (i + 1), 3 + i));
    }
    fs.concat(target, sources);
    assertArrayEquals(expected.toByteArray(), TestFiles.read(fs, target));
    assertFalse(fs.exists(sources[0]) || fs.exists(sources[1]));
    assertEquals(List.of(-inodeId(target)), blockIds(target));

    Path big = path("/concat/big");
    write(fs, big, THRESHOLD - 10, 5);
    Path tooMuch = path("/concat/too-much");
    write(fs, tooMuch, 100, 6);
    // HDFS's client leaves concat's HadoopIllegalArgumentException wrapped
    RemoteException refused = assertThrows(RemoteException.class, () -> fs.concat(big, new Path[] {tooMuch}));
    assertEquals(HadoopIllegalArgumentException.class.getName(), refused.getClassName());
    assertTrue(refused.getMessage().contains(SmallFilesConfig.MAX_BYTES), refused.getMessage());
    assertTrue(fs.exists(tooMuch), "a refused concat changes nothing");
  }

  @Test
  void quotasContentSummaryRenameAndRecursiveDeleteCountAndRemoveSmallFiles() throws Exception {
    FileSystem fs = canopyClient();
    DistributedFileSystem admin = CLUSTER.fileSystem();
    Path dir = path("/quota");
    fs.mkdirs(dir);
    write(fs, new Path(dir, "a"), 4000, 1);
    write(fs, new Path(dir, "b"), 500, 2);
    long replication = fs.getFileStatus(new Path(dir, "a")).getReplication();
    admin.setQuota(dir, 100, 4500 * replication + 1000);
    QuotaUsage usage = admin.getQuotaUsage(dir);
    assertEquals(4500L * replication, usage.getSpaceConsumed(), "bytes once per replica, as HDFS charges them");
    ContentSummary summary = admin.getContentSummary(dir);
    assertEquals(4500, summary.getLength());
    assertEquals(2, summary.getFileCount());
    assertEquals(4500L * replication, summary.getSpaceConsumed());
    FSDataOutputStream over = fs.create(new Path(dir, "c"));
    over.write(new byte[500]); // 1500 bytes with its replicas, against 1000 left
    assertThrows(org.apache.hadoop.hdfs.protocol.DSQuotaExceededException.class, over::close);
    assertThrows(org.apache.hadoop.hdfs.protocol.DSQuotaExceededException.class, over::close,
        "a failed close fails again, as HDFS's stream does: the bytes were not stored");
    assertEquals(4500L * replication, admin.getQuotaUsage(dir).getSpaceConsumed(), "the refused bytes are not charged");

    Path moved = path("/quota-moved");
    admin.setQuota(dir, -1, -1); // HdfsConstants.QUOTA_RESET
    assertTrue(fs.rename(dir, moved));
    assertEquals(4000, TestFiles.read(fs, new Path(moved, "a")).length);
    assertTrue(fs.delete(moved, true));
    assertEquals(0, StoreQueries.count(CLUSTER.store(), "SELECT count(*) FROM (SELECT inode_id FROM "
        + "small_file_inline UNION ALL SELECT inode_id FROM small_file_data) s WHERE inode_id NOT IN "
        + "(SELECT id FROM inodes)"), "no bytes outlive their files");
  }

  @Test
  void canopysProtocolDeclinesTooMuchRefusesALostLeaseAndRepeatsASuccess() throws Exception {
    DistributedFileSystem stock = CLUSTER.fileSystem();
    String src = "/protocol/f";
    FSDataOutputStream open = stock.create(path(src));
    String holder = stock.getClient().getClientName();
    HdfsFileStatus status = stock.getClient().getFileInfo(src);
    try (CanopyClientCalls calls = new CanopyClientCalls(CLUSTER.cluster().conf(),
        CLUSTER.cluster().nameNode(0).address())) {
      assertFalse(calls.completeSmall(src, holder, status.getFileId(), 0, new byte[THRESHOLD + 1]),
          "more than the threshold is declined");
      assertFalse(stock.isFileClosed(path(src)), "declined: the file is still open");
      assertThrows(IOException.class, () -> calls.completeSmall(src, holder, status.getFileId(), 5, new byte[10]),
          "the writer must append where the file ends");
      byte[] data = randomBytes(100, 1);
      assertTrue(calls.completeSmall(src, holder, status.getFileId(), 0, data));
      assertTrue(calls.completeSmall(src, holder, status.getFileId(), 0, data), "a retry after success: stored");
      byte[] others = randomBytes(100, 2);
      // CanopyClientCalls is one namenode's raw calls: its errors come as RemoteException (the client unwraps them)
      assertEquals(LeaseExpiredException.class.getName(), assertThrows(RemoteException.class,
          () -> calls.completeSmall(src, holder, status.getFileId(), 0, others),
          "other bytes of the same length are no repeat: the file is closed, the lease gone").getClassName());
      assertArrayEquals(data, TestFiles.read(canopyClient(), path(src)));
      assertEquals(LeaseExpiredException.class.getName(), assertThrows(RemoteException.class,
          () -> calls.completeSmall(src, "someone-else", status.getFileId(), 0, new byte[3]),
          "a writer without the lease is refused").getClassName());
    } finally {
      abandon(open);
    }
  }

  @Test
  void hsyncAndNewBlockAppendsGoThroughDatanodes() throws Exception {
    FileSystem fs = canopyClient();
    Path synced = path("/hsync/f");
    byte[] data = randomBytes(300, 8);
    try (FSDataOutputStream out = fs.create(synced)) {
      out.write(data);
      out.hsync();
    }
    assertTrue(blockIds(synced).get(0) > 0, "hsync puts the bytes on datanodes");
    assertArrayEquals(data, TestFiles.read(fs, synced));

    Path small = path("/hsync/small");
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(write(fs, small, 400, 9));
    byte[] more = randomBytes(50, 10);
    java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> newBlock = java.util.EnumSet.of(
        org.apache.hadoop.fs.CreateFlag.APPEND, org.apache.hadoop.fs.CreateFlag.NEW_BLOCK);
    try (FSDataOutputStream out = ((DistributedFileSystem) fs).append(small, newBlock, 4096, null)) {
      out.write(more);
    }
    expected.write(more);
    List<Long> ids = blockIds(small);
    assertEquals(List.of(-inodeId(small)), ids.subList(0, 1));
    assertTrue(ids.size() == 2 && ids.get(1) > 0, "NEW_BLOCK: a block of its own on datanodes: " + ids);
    assertArrayEquals(expected.toByteArray(), TestFiles.read(CLUSTER.fileSystem(), small));
  }

  @Test
  void closingTheFileSystemClosesItsSmallFilesWithTheirBytes() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/fs-close/f");
    byte[] data = randomBytes(700, 3);
    FSDataOutputStream out = fs.create(file);
    out.write(data);
    fs.close(); // as a JVM's shutdown hook does: HDFS's client closes its open streams, keeping their bytes
    assertArrayEquals(data, TestFiles.read(CLUSTER.fileSystem(), file));
  }

  @Test
  void aSmallFileNeverHasABlockLargerThanItsBlockSize() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/block-size/f");
    byte[] data = randomBytes(2500, 4);
    try (FSDataOutputStream out = fs.create(file, true, 4096, (short) 3, 1024)) {
      out.write(data);
    }
    List<Long> ids = blockIds(file);
    assertEquals(3, ids.size(), "1 KB blocks, as HDFS cuts them: " + ids);
    assertTrue(ids.stream().allMatch(id -> id > 0), "declined for the database, written through datanodes");
    assertArrayEquals(data, TestFiles.read(fs, file));
  }

  @Test
  void stockAppendsRenamesAndTruncatesOfSmallFiles() throws Exception {
    FileSystem fs = canopyClient();
    DistributedFileSystem stock = CLUSTER.fileSystem();
    Path file = path("/stock-ops/f");
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(write(fs, file, 1500, 5));
    byte[] more = randomBytes(600, 6);
    try (FSDataOutputStream out = stock.append(file)) { // the stock client appends through datanodes
      out.write(more);
    }
    expected.write(more);
    List<Long> ids = blockIds(file);
    assertEquals(2, ids.size());
    assertEquals(-inodeId(file), ids.get(0));
    assertArrayEquals(expected.toByteArray(), TestFiles.read(stock, file));
    assertArrayEquals(expected.toByteArray(), TestFiles.read(fs, file));
    // truncate into the database-resident first block of such a file: the datanode block goes, the bytes are cut
    assertTrue(fs.truncate(file, 1000));
    assertArrayEquals(java.util.Arrays.copyOf(expected.toByteArray(), 1000), TestFiles.read(stock, file));
    assertEquals(List.of(-inodeId(file)), blockIds(file));
    // a rename over a small file removes its bytes with it (the invariants check no bytes are left behind)
    Path other = path("/stock-ops/other");
    byte[] replacement = write(fs, other, 300, 7);
    ((DistributedFileSystem) fs).rename(other, file, org.apache.hadoop.fs.Options.Rename.OVERWRITE);
    assertArrayEquals(replacement, TestFiles.read(stock, file));
  }

  @Test
  void aWriterThatCrashesBeforeCloseLeavesAnEmptyFileLeaseRecoveryCloses() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/crash/f");
    FSDataOutputStream out = fs.create(file);
    out.write(randomBytes(100, 1)); // buffered in the client: never sent
    DistributedFileSystem other = CLUSTER.cluster().fileSystem(0);
    Await.until(file + " is recovered", java.time.Duration.ofSeconds(30), () -> other.recoverLease(file));
    assertEquals(0, other.getFileStatus(file).getLen(), "the unsent bytes are lost, as a crashed writer's are");
    assertThrows(IOException.class, out::close, "the old writer's close fails: its lease is gone");
  }

  @Test
  void aRestartedNamenodeServesTheSmallFilesItStored() throws Exception {
    FileSystem fs = canopyClient();
    Path file = path("/restart/f");
    byte[] data = write(fs, file, 2000, 4);
    CLUSTER.cluster().restartNameNode(0);
    FileSystem again = canopyClient();
    // the first call on a connection to the crashed namenode may still meet its end; a retried one reaches the new
    // (ClientProtocol and Canopy's protocol each have their connection)
    Await.until("the restarted namenode answers", java.time.Duration.ofSeconds(30),
        () -> answers(() -> fsExists(again)) && answers(() -> TestFiles.read(again, file))
            && answers(() -> fsExists(CLUSTER.fileSystem())));
    assertArrayEquals(data, TestFiles.read(again, file));
  }

  private interface Call {
    Object run() throws IOException;
  }

  private static boolean answers(Call call) {
    try {
      call.run();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Object fsExists(FileSystem fs) throws IOException {
    return fs.exists(path("/"));
  }

  /** Drops a stock stream whose file another call closed, without its close (which would fail). */
  private static void abandon(FSDataOutputStream out) throws IOException {
    org.apache.hadoop.hdfs.CanopyStreamAccess.abandon(
        (org.apache.hadoop.hdfs.DFSOutputStream) out.getWrappedStream());
  }
}
