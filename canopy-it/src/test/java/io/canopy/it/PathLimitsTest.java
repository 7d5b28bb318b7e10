package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue 12, item 7: one user could crash the namenode with a deep path. HDFS's path limits on every call, a tree far
 * deeper than them (built within them, by renames, as HDFS allows too) counted and deleted by its owner within a
 * time bound, and subtrees above {@code canopy.namenode.subtree.max-rows} counted and deleted in parts.
 */
@Timeout(900)
class PathLimitsTest {
  /** Small enough for the test to build a tree past it quickly, large enough for the deep tree below. */
  private static final int SUBTREE_LIMIT = 25_000;
  /** 997 components of seven characters under a two-level prefix: 999 levels and 7,986 characters. */
  private static final String CHAIN = "/ddddddd".repeat(997);
  private static final int CHAINS = 20;
  /** Generous: the deep tree costs one round trip per level, on a machine shared with other builds. */
  private static final Duration BOUND = Duration.ofSeconds(180);

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong(NameNodeConfig.SUBTREE_MAX_ROWS, SUBTREE_LIMIT)).build();
  static DistributedFileSystem superuser;

  @BeforeAll
  static void client() throws IOException {
    superuser = CLUSTER.fileSystem();
  }

  private static void assertTooLong(String call, Executable executable) {
    RemoteException error = assertThrows(RemoteException.class, executable);
    assertEquals(IOException.class.getName(), error.getClassName());
    assertEquals(call + ": Pathname too long.  Limit 8000 characters, 1000 levels.",
        error.getMessage().split("\n", 2)[0].trim());
  }

  /** HDFS checks only the calls that create a path; Canopy refuses any path it could never have created. */
  @Test
  void everyCallRefusesAPathBeyondHdfsLimitsBeforeReadingIt() throws IOException {
    ClientProtocol namenode = superuser.getClient().getNamenode();
    String tooDeep = "/d".repeat(1001);
    String tooLong = "/" + "x".repeat(200) + ("/" + "x".repeat(199)).repeat(39);
    assertEquals(8001, tooLong.length());
    assertTooLong("getFileInfo", () -> namenode.getFileInfo(tooDeep));
    assertTooLong("getFileInfo", () -> namenode.getFileInfo(tooLong));
    assertTooLong("getListing", () -> namenode.getListing(tooDeep, HdfsFileStatus.EMPTY_NAME, false));
    assertTooLong("getBlockLocations", () -> namenode.getBlockLocations(tooDeep, 0, 1));
    assertTooLong("getContentSummary", () -> namenode.getContentSummary(tooDeep));
    assertTooLong("getQuotaUsage", () -> namenode.getQuotaUsage(tooDeep));
    assertTooLong("delete", () -> namenode.delete(tooDeep, true));
    assertTooLong("setPermission", () -> namenode.setPermission(tooDeep, new FsPermission((short) 0700)));
    assertTooLong("setOwner", () -> namenode.setOwner(tooDeep, "alice", null));
    assertTooLong("setTimes", () -> namenode.setTimes(tooDeep, 0, 0));
    assertTooLong("setReplication", () -> namenode.setReplication(tooDeep, (short) 2));
    assertTooLong("listXAttrs", () -> namenode.listXAttrs(tooDeep));
    assertTooLong("checkAccess", () -> namenode.checkAccess(tooDeep, FsAction.READ));
    assertTooLong("setQuota", () -> namenode.setQuota(tooDeep, 10, HdfsConstants.QUOTA_DONT_SET, null));
    assertTooLong("rename", () -> namenode.rename(tooDeep, "/x"));
  }

  /**
   * A tree 19,960 levels deep, built within the limits as HDFS allows too (999-level chains renamed into each other's
   * deepest directory), counted and deleted by its owner, a normal user: permission checks must not keep a path per
   * inode (that was quadratic in depth and ran the namenode out of memory). Its deep paths cannot be named any more.
   */
  @Test
  void aTreeFarBeyondTheDepthLimitIsCountedAndDeletedByItsOwner() throws IOException {
    superuser.mkdirs(path("/alice"));
    superuser.setOwner(path("/alice"), "alice", "alice");
    DistributedFileSystem alice = CLUSTER.users().as("alice", "alice");
    for (int i = 0; i < CHAINS; i++) {
      assertTrue(alice.mkdirs(path("/alice/c" + i + CHAIN)));
    }
    for (int i = 0; i + 1 < CHAINS; i++) {
      String destination = "/alice/c" + (i + 1) + CHAIN + "/c" + i;
      assertTrue(alice.rename(path("/alice/c" + i), path(destination)), destination);
    }
    String top = "/alice/c" + (CHAINS - 1);
    long started = System.nanoTime();
    ContentSummary summary = alice.getContentSummary(path(top));
    Duration counted = Duration.ofNanos(System.nanoTime() - started);
    assertEquals(CHAINS * 998L, summary.getDirectoryCount());
    assertTrue(counted.compareTo(BOUND) < 0, "counting took " + counted);
    assertTooLong("getFileInfo", () -> alice.getClient().getNamenode().getFileInfo(top + CHAIN + "/c18/ddddddd"));

    started = System.nanoTime();
    assertTrue(alice.delete(path(top), true));
    Duration deleted = Duration.ofNanos(System.nanoTime() - started);
    assertTrue(deleted.compareTo(BOUND) < 0, "deleting took " + deleted);
    assertFalse(alice.exists(path(top)));
    System.out.println("tree of " + summary.getDirectoryCount() + " levels: counted in " + counted.toMillis()
        + " ms, deleted in " + deleted.toMillis() + " ms");
  }

  /**
   * 26 chains of 998 directories: 25,949 inodes (rows) under one directory, past the limit of 25,000 that one
   * transaction holds: counted, put under a quota and deleted in parts (design 017), holding the directories still
   * to read or the directories of the tree (about 250 bytes each), not every inode.
   */
  @Test
  void subtreesAboveTheConfiguredSizeAreCountedAndDeletedInParts() throws IOException {
    for (int i = 0; i < 26; i++) {
      assertTrue(superuser.mkdirs(path("/wide/w" + i + CHAIN)));
    }
    long inodes = 26 * 998 + 1;
    assertTrue(inodes > SUBTREE_LIMIT);
    List<String> before = inodeCount();
    assertEquals(inodes, superuser.getContentSummary(path("/wide")).getDirectoryCount());
    assertEquals(inodes, superuser.getQuotaUsage(path("/wide")).getFileAndDirectoryCount());
    superuser.setQuota(path("/wide"), 100_000, HdfsConstants.QUOTA_DONT_SET);
    QuotaUsage usage = superuser.getQuotaUsage(path("/wide"));
    assertEquals(100_000, usage.getQuota());
    assertEquals(inodes, usage.getFileAndDirectoryCount(), "the new quota charged the whole subtree");
    assertEquals(before, inodeCount(), "counting changes nothing");

    assertTrue(superuser.delete(path("/wide"), true), "deleted in parts");
    assertFalse(superuser.exists(path("/wide")));
    assertEquals(before.get(0), String.valueOf(Long.parseLong(inodeCount().get(0)) + inodes));
  }

  private static List<String> inodeCount() throws IOException {
    try (var store = CLUSTER.cluster().openStore()) {
      return new ArrayList<>(StoreQueries.column(store, "SELECT count(*) FROM inodes"));
    }
  }
}
