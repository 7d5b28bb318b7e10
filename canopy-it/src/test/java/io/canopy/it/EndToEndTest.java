package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The stock Hadoop client against one namenode and three Apache DataNodes. */
@Timeout(300)
class EndToEndTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(3).build();
  static DistributedFileSystem fs;

  @BeforeAll
  static void client() throws IOException {
    fs = CLUSTER.fileSystem();
  }

  private static void write(org.apache.hadoop.fs.Path path, byte[] data) throws IOException {
    TestFiles.write(fs, path, data, BLOCK_SIZE);
  }

  @Test
  void mkdirsAndStat() throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/e2e/a/b/c");
    assertTrue(fs.mkdirs(dir));
    FileStatus status = fs.getFileStatus(dir);
    assertTrue(status.isDirectory());
    assertEquals("c", status.getPath().getName());
    assertTrue(fs.mkdirs(dir), "mkdirs of an existing directory succeeds");
    assertNull(fs.getClient().getFileInfo("/e2e/missing"));
  }

  @Test
  void multiBlockFileRoundTripsByteIdentical() throws IOException {
    byte[] data = TestFiles.randomBytes(5 * BLOCK_SIZE + 1234, 1);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/e2e/multi/data.bin");
    write(path, data);
    assertEquals(data.length, fs.getFileStatus(path).getLen());
    assertArrayEquals(data, TestFiles.read(fs, path));
    assertEquals(6, fs.getFileBlockLocations(path, 0, data.length).length);
    for (var location : fs.getFileBlockLocations(path, 0, data.length)) {
      assertEquals(3, location.getHosts().length, "every block on three datanodes");
    }
  }

  @Test
  void emptyFile() throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/e2e/empty");
    write(path, new byte[0]);
    assertEquals(0, fs.getFileStatus(path).getLen());
    assertArrayEquals(new byte[0], TestFiles.read(fs, path));
  }

  @Test
  void listingLargerThanOneBatch() throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/e2e/wide");
    fs.mkdirs(dir);
    int count = 2500; // dfs.ls.limit is 1000: three batches
    for (int i = 0; i < count; i++) {
      assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path(dir, String.format("d%05d", i))));
    }
    FileStatus[] listed = fs.listStatus(dir);
    assertEquals(count, listed.length);
    for (int i = 0; i < count; i++) {
      assertEquals(String.format("d%05d", i), listed[i].getPath().getName());
    }
    assertEquals(count, fs.getContentSummary(dir).getDirectoryCount() - 1);
  }

  @Test
  void spreadTopLevelsListAndMoveLikeAnyDirectory() throws IOException {
    // /e2e-top is a child of the root and spreads its children over partitions (the top levels do)
    org.apache.hadoop.fs.Path top = new org.apache.hadoop.fs.Path("/e2e-top");
    int count = 1100; // more than one listing batch (dfs.ls.limit 1000)
    for (int i = 0; i < count; i++) {
      assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path(top, String.format("t%05d", i))));
    }
    FileStatus[] listed = fs.listStatus(top);
    assertEquals(count, listed.length);
    for (int i = 0; i < count; i++) {
      assertEquals(String.format("t%05d", i), listed[i].getPath().getName());
    }
    // moving between a spread level and a deep directory re-keys the moved inode only; its children follow it
    org.apache.hadoop.fs.Path deep = new org.apache.hadoop.fs.Path("/e2e-top/t00000/deeper/still");
    write(new org.apache.hadoop.fs.Path("/e2e-top/t00001/child"), TestFiles.randomBytes(10, 9));
    assertTrue(fs.mkdirs(deep));
    assertTrue(fs.rename(new org.apache.hadoop.fs.Path("/e2e-top/t00001"),
        new org.apache.hadoop.fs.Path(deep, "moved")));
    assertEquals(10, fs.getFileStatus(new org.apache.hadoop.fs.Path(deep, "moved/child")).getLen());
    assertTrue(fs.rename(new org.apache.hadoop.fs.Path(deep, "moved"), new org.apache.hadoop.fs.Path("/e2e-back")));
    assertEquals(10, fs.getFileStatus(new org.apache.hadoop.fs.Path("/e2e-back/child")).getLen());
    assertEquals(count - 1, fs.listStatus(top).length);
    assertTrue(java.util.Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path("/")))
        .anyMatch(status -> status.getPath().getName().equals("e2e-back")));
    assertEquals(count - 1 + 2, fs.getContentSummary(top).getDirectoryCount() - 1, "t-dirs left, deeper, still");
    // a recursive delete of a level wider than one subtree round trip and one listing page
    assertTrue(fs.delete(top, true));
    assertFalse(fs.exists(top));
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/e2e-back/child")));
  }

  @Test
  void renameFileAndDirectory() throws IOException {
    byte[] data = TestFiles.randomBytes(1000, 2);
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/e2e/mv/src/file");
    write(file, data);
    org.apache.hadoop.fs.Path movedFile = new org.apache.hadoop.fs.Path("/e2e/mv/src/renamed");
    assertTrue(fs.rename(file, movedFile));
    assertFalse(fs.exists(file));
    assertArrayEquals(data, TestFiles.read(fs, movedFile));
    org.apache.hadoop.fs.Path movedDir = new org.apache.hadoop.fs.Path("/e2e/mv/dst");
    assertTrue(fs.rename(new org.apache.hadoop.fs.Path("/e2e/mv/src"), movedDir));
    assertArrayEquals(data, TestFiles.read(fs, new org.apache.hadoop.fs.Path(movedDir, "renamed")));
    assertFalse(fs.exists(new org.apache.hadoop.fs.Path("/e2e/mv/src")));
  }

  @Test
  void recursiveDeleteFreesBlocks() throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/e2e/rm");
    write(new org.apache.hadoop.fs.Path(dir, "x/y/file"), TestFiles.randomBytes(3 * BLOCK_SIZE, 3));
    write(new org.apache.hadoop.fs.Path(dir, "other"), TestFiles.randomBytes(10, 4));
    assertTrue(fs.delete(dir, true));
    assertFalse(fs.exists(dir));
    assertFalse(fs.delete(dir, true), "deleting a missing path answers false");
  }

  @Test
  void chmodChownSetrep() throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/e2e/attrs/file");
    write(file, TestFiles.randomBytes(100, 5));
    fs.setPermission(file, new FsPermission((short) 0600));
    assertEquals((short) 0600, fs.getFileStatus(file).getPermission().toShort());
    fs.setOwner(file, "alice", "staff");
    assertEquals("alice", fs.getFileStatus(file).getOwner());
    assertEquals("staff", fs.getFileStatus(file).getGroup());
    assertTrue(fs.setReplication(file, (short) 2));
    assertEquals(2, fs.getFileStatus(file).getReplication());
    fs.setTimes(file, 1_000_000L, 2_000_000L);
    assertEquals(1_000_000L, fs.getFileStatus(file).getModificationTime());
    assertEquals(2_000_000L, fs.getFileStatus(file).getAccessTime());
  }

  @Test
  void listLocatedStatusCarriesBlocks() throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/e2e/located");
    write(new org.apache.hadoop.fs.Path(dir, "f"), TestFiles.randomBytes(2 * BLOCK_SIZE, 6));
    RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(dir);
    assertTrue(it.hasNext());
    LocatedFileStatus status = it.next();
    assertNotNull(status.getBlockLocations());
    assertEquals(2, status.getBlockLocations().length);
    assertFalse(it.hasNext());
  }

  @Test
  void statsAndReport() throws IOException {
    assertTrue(fs.getStatus().getCapacity() > 0);
    assertEquals(3, fs.getDataNodeStats().length);
    assertTrue(Arrays.stream(fs.getDataNodeStats()).allMatch(d -> d.getIpAddr().equals("127.0.0.1")));
  }
}
