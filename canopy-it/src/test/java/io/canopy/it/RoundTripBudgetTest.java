package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyClientCalls;
import io.canopy.client.SmallFileRead;
import io.canopy.namenode.NameNode;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Database round trips per operation, counted by the data-access layer (docs/references.md [HopsFS-1M] Table I): with
 * the inode hints warm, getFileInfo, getBlockLocations and create of a file cost the same at every depth; with cold
 * hints (a namenode that never saw the path) they grow by one round trip per path component.
 */
@Timeout(120)
class RoundTripBudgetTest {
  private static final int[] DEPTHS = {2, 5, 10, 20};
  /** One batched read of the path, its locks and the file's blocks; nothing else. */
  private static final long WARM_GET_FILE_INFO = 1;
  private static final long WARM_GET_BLOCK_LOCATIONS = 1;
  /**
   * Statements in that one round trip (issue 13): the path, whatever its depth, is one statement; a file's blocks,
   * replicas and pipeline replicas one more.
   */
  private static final long WARM_GET_FILE_INFO_STATEMENTS = 1;
  private static final long WARM_GET_BLOCK_LOCATIONS_STATEMENTS = 2;
  /** The lock round trip, then the writes and the commit in one pipeline. */
  private static final long WARM_CREATE = 2;
  private static final int LISTING_LIMIT = 10;
  /** See {@link #aWarmDeleteReadsWhatItsTargetsKindCanHave}: five reads, then four writes and the commit. */
  private static final long WARM_DELETE_STATEMENTS = 10;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt("dfs.ls.limit", LISTING_LIMIT)) // listings of a few pages from a small directory
      .nameNodes(2).dataNodes(1).build();

  /** A directory at {@code depth - 1} in its own tree, so that no other depth shares its components. */
  private static String dir(String tree, int depth) {
    StringBuilder path = new StringBuilder("/" + tree + depth);
    for (int i = 2; i < depth; i++) {
      path.append("/d").append(i);
    }
    return path.toString();
  }

  /** Round trips of the one {@code operation} call that {@code call} makes on {@code nameNode}. */
  private static long roundTrips(NameNode nameNode, String operation, IoRunnable call) throws IOException {
    return cost(nameNode, operation, call).roundTrips();
  }

  /** Round trips and statements of the one {@code operation} call that {@code call} makes on {@code nameNode}. */
  private static OperationMetrics.Snapshot cost(NameNode nameNode, String operation, IoRunnable call)
      throws IOException {
    OperationMetrics.Snapshot before = snapshot(nameNode, operation);
    call.run();
    OperationMetrics.Snapshot delta = snapshot(nameNode, operation).minus(before);
    assertEquals(1, delta.operations(), operation + " should have run exactly once");
    assertEquals(0, delta.retries(), operation + " should not have retried");
    return delta;
  }

  private static OperationMetrics.Snapshot snapshot(NameNode nameNode, String operation) {
    Map<String, OperationMetrics.Snapshot> all = nameNode.runner().metrics().snapshot();
    return all.getOrDefault(operation, OperationMetrics.Snapshot.ZERO);
  }

  private interface IoRunnable {
    void run() throws IOException;
  }

  private static void create(ClientProtocol namenode, String path) throws IOException {
    assertNotNull(namenode.create(path, FsPermission.getFileDefault(), "budget-client",
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1024, CryptoProtocolVersion.supported(),
        null, null));
    namenode.complete(path, "budget-client", null, HdfsConstants.GRANDFATHER_INODE_ID);
  }

  @Test
  void warmHintsMakeRoundTripsIndependentOfDepth() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol client = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    for (int depth : DEPTHS) {
      String parent = dir("warm", depth);
      CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(parent));
      String file = parent + "/file";
      String second = parent + "/second";
      create(client, file); // warms the hints for the parent's components
      assertEquals(WARM_CREATE, roundTrips(nameNode, "create", () -> create(client, second)),
          "create at depth " + depth);
      OperationMetrics.Snapshot info = cost(nameNode, "getFileInfo", () -> client.getFileInfo(file));
      assertEquals(WARM_GET_FILE_INFO, info.roundTrips(), "getFileInfo round trips at depth " + depth);
      assertEquals(WARM_GET_FILE_INFO_STATEMENTS, info.statements(), "getFileInfo statements at depth " + depth);
      OperationMetrics.Snapshot locations = cost(nameNode, "getBlockLocations",
          () -> client.getBlockLocations(file, 0, 1));
      assertEquals(WARM_GET_BLOCK_LOCATIONS, locations.roundTrips(), "getBlockLocations round trips at depth "
          + depth);
      assertEquals(WARM_GET_BLOCK_LOCATIONS_STATEMENTS, locations.statements(), "getBlockLocations statements at "
          + "depth " + depth);
    }
  }

  /**
   * A warm delete reads only what its target's kind can have (issue 13): a file's blocks but no children, an empty
   * directory's children but no blocks. Both are the path, the parent's and the target's locks, that one read and the
   * quota epoch; then the inode's delete, the parent's update, the retry-cache row, the extended attributes' delete
   * and the commit.
   */
  @Test
  void aWarmDeleteReadsWhatItsTargetsKindCanHave() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol client = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    for (int depth : DEPTHS) {
      String parent = dir("delete", depth);
      CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(parent + "/empty"));
      create(client, parent + "/file");
      assertNotNull(client.getFileInfo(parent + "/empty")); // the hints know both kinds now
      OperationMetrics.Snapshot file = cost(nameNode, "delete", () -> client.delete(parent + "/file", false));
      assertEquals(2, file.roundTrips(), "delete of a file at depth " + depth);
      assertEquals(WARM_DELETE_STATEMENTS, file.statements(), "delete of a file at depth " + depth);
      OperationMetrics.Snapshot directory = cost(nameNode, "delete", () -> client.delete(parent + "/empty", false));
      assertEquals(2, directory.roundTrips(), "delete of an empty directory at depth " + depth);
      assertEquals(WARM_DELETE_STATEMENTS, directory.statements(), "delete of an empty directory at depth " + depth);
      assertNull(client.getFileInfo(parent + "/file"));
      assertNull(client.getFileInfo(parent + "/empty"));
    }
  }

  /**
   * A rename to a new name, in the same directory or into another known one, costs its lock round trip and its
   * commit (issue 13): the destination's own new name (and dst/name, in case dst were a directory) are predicted
   * missing from the hints instead of resolved component by component.
   */
  @Test
  void aWarmRenameToANewNameIsTwoRoundTrips() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol client = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    for (int depth : DEPTHS) {
      String parent = dir("rename", depth);
      String other = parent + "/other";
      CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(other));
      create(client, parent + "/file");
      assertEquals(2, roundTrips(nameNode, "rename", () -> client.rename(parent + "/file", parent + "/renamed")),
          "rename in one directory at depth " + depth);
      assertEquals(2, roundTrips(nameNode, "rename", () -> client.rename(parent + "/renamed", other + "/moved")),
          "rename into a sibling directory at depth " + depth);
      assertNotNull(client.getFileInfo(other + "/moved"));
    }
  }

  /**
   * A listing page, the count of what is left after it included (HDFS's remaining entries): the first page counts
   * from the directory's children count, a later one from the page before it on the same namenode; a namenode that
   * did not serve the page before counts in one more round trip.
   */
  @Test
  void listingPagesCountWhatIsLeftInTheirOneRoundTrip() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol client = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    String parent = dir("listing", 5);
    for (int i = 0; i < 25; i++) {
      CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(parent + String.format("/c%02d", i)));
    }
    DirectoryListing[] page = new DirectoryListing[1];
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    for (int remaining : new int[] {15, 5, 0}) {
      byte[] startAfter = after;
      assertEquals(1, roundTrips(nameNode, "getListing", () -> page[0] = client.getListing(parent, startAfter,
          false)), "the page before " + remaining + " left");
      assertEquals(remaining, page[0].getRemainingEntries());
      after = page[0].getLastName();
    }
    ClientProtocol other = CLUSTER.cluster().fileSystem(1).getClient().getNamenode();
    other.getFileInfo(parent); // warm the other namenode's hints for the path
    byte[] afterFirstPage = "c09".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(2, roundTrips(CLUSTER.cluster().nameNode(1), "getListing", () -> page[0] = other.getListing(parent,
        afterFirstPage, false)));
    assertEquals(5, page[0].getRemainingEntries());
  }

  /**
   * A content summary reads the children of many directories in one round trip (up to 64, each a small page near the
   * transaction's bound), not a round trip per directory, both in its first transaction (up to the subtree protocol's
   * threshold, 2,000 inodes) and in the batches that count past it (design 017): on Ignite each such read waits for
   * its partition's safe time, and a count of a wide tree took more than a minute (design 020).
   */
  @Test
  void aWideSubtreeIsCountedManyDirectoriesPerRoundTrip() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    org.apache.hadoop.hdfs.DistributedFileSystem fs = CLUSTER.cluster().fileSystem(0);
    String parent = dir("wide", 3);
    int directories = 2100; // past the threshold: the first transaction gives up, then batches count it
    for (int i = 0; i < directories; i++) {
      assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path(parent + String.format("/w%04d", i))));
    }
    OperationMetrics.Snapshot before = snapshot(nameNode, "getContentSummary");
    assertEquals(directories + 1, fs.getContentSummary(new org.apache.hadoop.fs.Path(parent)).getDirectoryCount());
    OperationMetrics.Snapshot delta = snapshot(nameNode, "getContentSummary").minus(before);
    assertTrue(delta.operations() > 1, "counted in batches past the threshold: " + delta);
    assertTrue(delta.roundTrips() < directories / 10, "round trips of a count of " + directories
        + " empty directories: " + delta);
  }

  /**
   * The calls of issue 6's links part on a warm path: the extended attributes come with the path's lock (one round
   * trip to read, then one for the writes and the commit), the link's own status and the effective storage policy
   * are one read of the path.
   */
  @Test
  void attributePolicyAndLinkCallsCostTheirPathsRoundTrips() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol client = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    String parent = dir("calls", 10);
    CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(parent));
    String file = parent + "/file";
    create(client, file);
    XAttr one = XAttrHelper.buildXAttr("user.one", new byte[] {1});
    assertEquals(2, roundTrips(nameNode, "setXAttr", () -> client.setXAttr(file, one,
        EnumSet.of(XAttrSetFlag.CREATE))));
    assertEquals(1, roundTrips(nameNode, "getXAttrs", () -> assertEquals(1, client.getXAttrs(file, null).size())));
    assertEquals(1, roundTrips(nameNode, "listXAttrs", () -> assertEquals(1, client.listXAttrs(file).size())));
    assertEquals(2, roundTrips(nameNode, "removeXAttr", () -> client.removeXAttr(file, one)));
    assertEquals(1, roundTrips(nameNode, "getFileLinkInfo", () -> assertNotNull(client.getFileLinkInfo(file))));
    assertEquals(1, roundTrips(nameNode, "getStoragePolicy", () -> assertNotNull(client.getStoragePolicy(file))));
  }

  /**
   * A small file's bytes (design 016) are read with its lock, in the statement that reads its blocks: readSmallFile
   * of Canopy's client, and getBlockLocations of a stock client (which leaves them for the namenode's small-file
   * endpoint), cost what getBlockLocations of any file costs.
   */
  @Test
  void aSmallFilesBytesComeWithItsBlocks() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    DistributedFileSystem stock = CLUSTER.cluster().fileSystem(0);
    ClientProtocol client = stock.getClient().getNamenode();
    String parent = dir("small", 5);
    stock.mkdirs(new org.apache.hadoop.fs.Path(parent));
    String file = parent + "/file";
    byte[] data = new byte[3000];
    new Random(5).nextBytes(data);
    try (CanopyClientCalls calls = new CanopyClientCalls(CLUSTER.cluster().conf(), nameNode.address())) {
      assertNotNull(client.create(file, FsPermission.getFileDefault(), "budget-client",
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1024 * 1024,
          CryptoProtocolVersion.supported(), null, null));
      long fileId = client.getFileInfo(file).getFileId();
      assertTrue(calls.completeSmall(file, "budget-client", fileId, 0, data), "stored in the database");
      calls.readSmallFile(file, 0, data.length); // warms the hints
      SmallFileRead[] read = new SmallFileRead[1];
      OperationMetrics.Snapshot small = cost(nameNode, "readSmallFile",
          () -> read[0] = calls.readSmallFile(file, 0, data.length));
      assertArrayEquals(data, read[0].data(), "the bytes, with the located blocks");
      assertEquals(WARM_GET_BLOCK_LOCATIONS, small.roundTrips(), "readSmallFile round trips");
      assertEquals(WARM_GET_BLOCK_LOCATIONS_STATEMENTS, small.statements(), "readSmallFile statements");
      OperationMetrics.Snapshot locations = cost(nameNode, "getBlockLocations",
          () -> assertEquals(1, client.getBlockLocations(file, 0, data.length).locatedBlockCount()));
      assertEquals(WARM_GET_BLOCK_LOCATIONS, locations.roundTrips(), "getBlockLocations of a small file");
      assertEquals(WARM_GET_BLOCK_LOCATIONS_STATEMENTS, locations.statements(),
          "getBlockLocations of a small file, with its bytes read ahead");
    }
  }

  /**
   * A quota directory above costs no round trip once the hints know its flag: its usage row is locked in the lock
   * round trip (create), or with the file locked by id (addBlock, complete).
   */
  @Test
  void quotaDirectoriesAboveCostNoExtraRoundTrip() throws IOException {
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    org.apache.hadoop.hdfs.DistributedFileSystem fs = CLUSTER.cluster().fileSystem(0);
    ClientProtocol client = fs.getClient().getNamenode();
    String plain = dir("quotaFree", 5);
    String quoted = dir("quotaAbove", 5);
    fs.mkdirs(new org.apache.hadoop.fs.Path(plain));
    fs.mkdirs(new org.apache.hadoop.fs.Path(quoted));
    fs.setQuota(new org.apache.hadoop.fs.Path("/quotaAbove5/d2"), 1000, 1L << 40);
    fs.setQuota(new org.apache.hadoop.fs.Path(quoted), 100, HdfsConstants.QUOTA_DONT_SET);
    long[][] costs = new long[2][];
    String[] parents = {plain, quoted};
    for (int i = 0; i < 2; i++) {
      String parent = parents[i];
      create(client, parent + "/warm"); // warms the hints, flags included
      String file = parent + "/file";
      long create = roundTrips(nameNode, "create", () -> client.create(file, FsPermission.getFileDefault(),
          "budget-client", new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1024,
          CryptoProtocolVersion.supported(), null, null));
      long fileId = client.getFileInfo(file).getFileId();
      long[] block = new long[1];
      long addBlock = roundTrips(nameNode, "addBlock", () -> block[0] = client.addBlock(file, "budget-client", null,
          null, fileId, null, null).getBlock().getBlockId());
      long abandon = roundTrips(nameNode, "abandonBlock", () -> client.abandonBlock(client.getBlockLocations(file,
          0, 1).getLastLocatedBlock().getBlock(), fileId, file, "budget-client"));
      long complete = roundTrips(nameNode, "complete", () -> client.complete(file, "budget-client", null, fileId));
      costs[i] = new long[] {create, addBlock, abandon, complete};
    }
    assertEquals(WARM_CREATE, costs[0][0], "create without a quota above");
    assertEquals(java.util.Arrays.toString(costs[0]), java.util.Arrays.toString(costs[1]),
        "create, addBlock, abandonBlock, complete: without, then with two quota directories above");
    assertEquals(3, fs.getQuotaUsage(new org.apache.hadoop.fs.Path(quoted)).getFileAndDirectoryCount());
  }

  @Test
  void coldHintsCostOneRoundTripPerComponent() throws IOException {
    ClientProtocol writer = CLUSTER.cluster().fileSystem(0).getClient().getNamenode();
    NameNode cold = CLUSTER.cluster().nameNode(1);
    ClientProtocol reader = CLUSTER.cluster().fileSystem(1).getClient().getNamenode();
    reader.getFileInfo("/"); // the root's hint: known to every namenode after its first operation
    long[] stat = new long[DEPTHS.length];
    long[] locate = new long[DEPTHS.length];
    long[] make = new long[DEPTHS.length];
    for (int i = 0; i < DEPTHS.length; i++) {
      int depth = DEPTHS[i];
      for (String tree : new String[] {"statCold", "locateCold", "createCold"}) {
        CLUSTER.cluster().fileSystem(0).mkdirs(new org.apache.hadoop.fs.Path(dir(tree, depth)));
        create(writer, dir(tree, depth) + "/file");
      }
      stat[i] = roundTrips(cold, "getFileInfo", () -> reader.getFileInfo(dir("statCold", depth) + "/file"));
      locate[i] = roundTrips(cold, "getBlockLocations",
          () -> reader.getBlockLocations(dir("locateCold", depth) + "/file", 0, 1));
      make[i] = roundTrips(cold, "create", () -> reader.create(dir("createCold", depth) + "/new",
          FsPermission.getFileDefault(), "budget-client", new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
          true, (short) 1, 1024, CryptoProtocolVersion.supported(), null, null));
    }
    for (int i = 1; i < DEPTHS.length; i++) {
      long components = DEPTHS[i] - DEPTHS[0];
      assertEquals(components, stat[i] - stat[0], "getFileInfo: one more round trip per component");
      assertEquals(components, locate[i] - locate[0], "getBlockLocations: one more round trip per component");
      assertEquals(components, make[i] - make[0], "create: one more round trip per component");
    }
    // and once the hints are warm, the same calls are back to their budget
    assertEquals(WARM_GET_FILE_INFO, roundTrips(cold, "getFileInfo",
        () -> reader.getFileInfo(dir("statCold", 20) + "/file")));
  }
}
