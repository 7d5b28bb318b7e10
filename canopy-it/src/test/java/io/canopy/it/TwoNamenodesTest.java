package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two stateless namenodes on one database: what one does, the other sees at once. */
@Timeout(300)
class TwoNamenodesTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(2).dataNodes(3).build();
  static DistributedFileSystem first;
  static DistributedFileSystem second;

  @BeforeAll
  static void clients() throws IOException {
    first = CLUSTER.fileSystem(0);
    second = CLUSTER.fileSystem(1);
  }

  @Test
  void fileWrittenThroughOneIsReadThroughTheOther() throws IOException {
    byte[] data = TestFiles.randomBytes(3 * BLOCK_SIZE + 17, 11);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/two/written-on-first");
    TestFiles.write(first, path, data, BLOCK_SIZE);
    assertArrayEquals(data, TestFiles.read(second, path));
  }

  @Test
  void fileWrittenThroughTheSecondIsReadThroughTheFirst() throws IOException {
    // The datanodes report to the first namenode only: the second completes the file from the database.
    byte[] data = TestFiles.randomBytes(2 * BLOCK_SIZE + 5, 12);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/two/written-on-second");
    TestFiles.write(second, path, data, BLOCK_SIZE);
    assertArrayEquals(data, TestFiles.read(first, path));
    assertArrayEquals(data, TestFiles.read(second, path));
  }

  @Test
  void staleHintsOnTheOtherNamenodeAreRepaired() throws IOException {
    org.apache.hadoop.fs.Path original = new org.apache.hadoop.fs.Path("/two/hints/a/b/c");
    first.mkdirs(original);
    assertTrue(second.exists(original), "second namenode caches hints for /two/hints/a/b/c");
    assertTrue(first.rename(new org.apache.hadoop.fs.Path("/two/hints/a"),
        new org.apache.hadoop.fs.Path("/two/hints/z")));
    assertFalse(second.exists(original), "a renamed directory is gone from its old path on every namenode");
    assertTrue(second.exists(new org.apache.hadoop.fs.Path("/two/hints/z/b/c")));
    assertTrue(first.delete(new org.apache.hadoop.fs.Path("/two/hints/z"), true));
    assertFalse(second.exists(new org.apache.hadoop.fs.Path("/two/hints/z/b/c")));
    second.mkdirs(new org.apache.hadoop.fs.Path("/two/hints/a/b"));
    assertTrue(first.exists(new org.apache.hadoop.fs.Path("/two/hints/a/b")));
    assertFalse(first.exists(original));
  }

  @Test
  void listingsAgree() throws IOException {
    for (int i = 0; i < 20; i++) {
      (i % 2 == 0 ? first : second).mkdirs(new org.apache.hadoop.fs.Path("/two/list/d" + i));
    }
    assertEquals(20, first.listStatus(new org.apache.hadoop.fs.Path("/two/list")).length);
    assertEquals(20, second.listStatus(new org.apache.hadoop.fs.Path("/two/list")).length);
  }
}
