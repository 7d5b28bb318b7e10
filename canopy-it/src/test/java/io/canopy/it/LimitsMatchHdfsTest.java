package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * HDFS's limits and listing answers, asked of Apache HDFS 3.5.0 and Canopy side by side with the same settings: the
 * path length and depth limits of the calls that create a path (exception class and message), the remaining-entries
 * count of every listing page (a start point holding a NUL byte included), and the blocks-per-file limit; and the
 * one place Canopy is stricter on purpose, concat past that limit (docs/compatibility/limits.md).
 */
@Timeout(600)
class LimitsMatchHdfsTest {
  private static final FsPermission DIR = new FsPermission((short) 0755);
  private static final int LISTING_LIMIT = 10;
  private static final int MAX_BLOCKS = 3;
  private static final int BLOCK_SIZE = 1024;

  @TempDir
  static Path directory;
  static ApacheHdfsCluster hdfs;
  static MiniCanopyCluster canopy;
  static DistributedFileSystem hdfsClient;
  static DistributedFileSystem canopyClient;

  private static Configuration settings() {
    Configuration conf = MiniCanopyCluster.testConfiguration();
    conf.setInt("dfs.ls.limit", LISTING_LIMIT);
    conf.setLong("dfs.namenode.fs-limits.max-blocks-per-file", MAX_BLOCKS);
    return conf;
  }

  @BeforeAll
  static void startClusters() throws IOException {
    hdfs = ApacheHdfsCluster.start(directory.resolve("hdfs"), settings(), 1);
    hdfsClient = hdfs.newFileSystem();
    canopy = MiniCanopyCluster.start(directory.resolve("canopy"), settings(), 1, 1);
    canopyClient = canopy.fileSystem();
  }

  @AfterAll
  static void stopClusters() throws IOException {
    if (hdfsClient != null) {
      hdfsClient.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
    if (canopy != null) {
      canopy.close();
    }
  }

  /** A call on both systems, through the raw protocol. */
  private interface Call {
    void on(ClientProtocol namenode) throws IOException;
  }

  private static void onBoth(Call call) throws IOException {
    call.on(hdfsClient.getClient().getNamenode());
    call.on(canopyClient.getClient().getNamenode());
  }

  /** The exception class and first message line of a refused call, the same on both systems. */
  private static void refusedAlike(String expectedFirstLine, Call call) {
    String hdfsAnswer = refusal(() -> call.on(hdfsClient.getClient().getNamenode()));
    String canopyAnswer = refusal(() -> call.on(canopyClient.getClient().getNamenode()));
    assertEquals("java.io.IOException: " + expectedFirstLine, hdfsAnswer, "HDFS's answer");
    assertEquals(hdfsAnswer, canopyAnswer, "Canopy answers as HDFS");
  }

  private static String refusal(Executable call) {
    RemoteException error = assertThrows(RemoteException.class, call);
    return error.getClassName() + ": " + error.getMessage().split("\n", 2)[0].trim();
  }

  private static String levels(String prefix, int count) {
    return prefix + "/d".repeat(count);
  }

  /**
   * A path of {@code length} characters made of 200-character components ("/" and 199 letters), the first one longer
   * by what is left over (within the 255-byte component limit).
   */
  private static String ofLength(int length) {
    int extra = length % 200;
    assertTrue(extra < 56 && length >= 200, "no such path: " + length);
    return "/" + "x".repeat(199 + extra) + ("/" + "x".repeat(199)).repeat(length / 200 - 1);
  }

  @Test
  void creatingCallsRefuseHdfsPathLengthAndDepthWithItsMessages() throws IOException {
    String deepest = levels("", 1000);
    String longest = ofLength(8000);
    onBoth(namenode -> namenode.mkdirs(deepest, DIR, true)); // exactly at both limits: allowed
    onBoth(namenode -> namenode.mkdirs(longest, DIR, true));
    onBoth(namenode -> namenode.mkdirs("/limits/src", DIR, true));

    String tooDeep = deepest + "/x";
    String tooLong = ofLength(8001);
    assertEquals(1001, tooDeep.split("/").length - 1);
    assertEquals(8001, tooLong.length());
    String limits = "Pathname too long.  Limit 8000 characters, 1000 levels.";
    refusedAlike("mkdirs: " + limits, namenode -> namenode.mkdirs(tooDeep, DIR, true));
    refusedAlike("mkdirs: " + limits, namenode -> namenode.mkdirs(tooLong, DIR, true));
    refusedAlike("create: " + limits, namenode -> namenode.create(tooDeep, DIR, "limits-client",
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, BLOCK_SIZE,
        CryptoProtocolVersion.supported(), null, null));
    refusedAlike("rename: " + limits, namenode -> namenode.rename("/limits/src", tooDeep));
    refusedAlike("rename: " + limits, namenode -> namenode.rename2("/limits/src", tooLong,
        Options.Rename.NONE));
    onBoth(namenode -> namenode.delete("/limits", true));
  }

  /** One page: its names and the remaining-entries count. */
  private static List<String> pages(DistributedFileSystem client, String directory, byte[] startAfter)
      throws IOException {
    List<String> pages = new ArrayList<>();
    byte[] after = startAfter;
    while (true) {
      DirectoryListing page = client.getClient().getNamenode().getListing(directory, after, false);
      List<String> names = new ArrayList<>();
      for (HdfsFileStatus status : page.getPartialListing()) {
        names.add(status.getLocalName());
      }
      pages.add(names + " remaining " + page.getRemainingEntries());
      if (!page.hasMore()) {
        return pages;
      }
      after = page.getLastName();
    }
  }

  @Test
  void everyListingPageCountsTheEntriesLeftAsHdfsDoes() throws IOException {
    for (int i = 0; i < 25; i++) {
      String child = String.format("/list/c%02d", i);
      onBoth(namenode -> namenode.mkdirs(child, DIR, true));
    }
    List<String> expected = pages(hdfsClient, "/list", HdfsFileStatus.EMPTY_NAME);
    assertEquals(3, expected.size(), expected.toString());
    assertTrue(expected.get(0).endsWith("remaining 15"), expected.toString());
    assertEquals(expected, pages(canopyClient, "/list", HdfsFileStatus.EMPTY_NAME));
    // HDFS accepts any bytes as a start point; names cannot hold a NUL, so the answer is the same as after "c05"
    byte[] nul = "c05\0zz".getBytes(StandardCharsets.UTF_8);
    List<String> afterNul = pages(hdfsClient, "/list", nul);
    assertTrue(afterNul.get(0).startsWith("[c06,"), afterNul.toString());
    assertEquals(afterNul, pages(canopyClient, "/list", nul));
    // a start point past every name, and a file listed as itself
    assertEquals(pages(hdfsClient, "/list", "zz".getBytes(StandardCharsets.UTF_8)),
        pages(canopyClient, "/list", "zz".getBytes(StandardCharsets.UTF_8)));
  }

  private static void write(DistributedFileSystem client, String path, int length) throws IOException {
    TestFiles.write(client, path(path), TestFiles.randomBytes(length, 5), (short) 1, BLOCK_SIZE);
  }

  @Test
  void aFileStopsAtTheBlocksPerFileLimitWithHdfsMessage() throws IOException {
    String expected = "File has reached the limit on maximum number of blocks "
        + "(dfs.namenode.fs-limits.max-blocks-per-file): 3 >= 3";
    for (DistributedFileSystem client : List.of(hdfsClient, canopyClient)) {
      write(client, "/blocks/three", MAX_BLOCKS * BLOCK_SIZE); // at the limit: allowed
      IOException refused = assertThrows(IOException.class,
          () -> write(client, "/blocks/four", (MAX_BLOCKS + 1) * BLOCK_SIZE));
      assertTrue(String.valueOf(refused.getMessage()).contains(expected), client.getUri() + ": " + refused);
    }
  }

  /**
   * HDFS's concat checks no block limit, so a file can grow past it; Canopy refuses a concat whose target would,
   * since every call that reads a file holds all its blocks (docs/compatibility/limits.md).
   */
  @Test
  void concatPastTheBlocksPerFileLimitIsRefusedByCanopyOnly() throws IOException {
    for (DistributedFileSystem client : List.of(hdfsClient, canopyClient)) {
      write(client, "/concat/target", 2 * BLOCK_SIZE);
      write(client, "/concat/source", 2 * BLOCK_SIZE);
    }
    hdfsClient.concat(new org.apache.hadoop.fs.Path("/concat/target"),
        new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path("/concat/source")});
    assertEquals(4, hdfsClient.getFileBlockLocations(new org.apache.hadoop.fs.Path("/concat/target"), 0,
        4 * BLOCK_SIZE).length);
    IOException refused = assertThrows(IOException.class, () -> canopyClient.concat(
        new org.apache.hadoop.fs.Path("/concat/target"),
        new org.apache.hadoop.fs.Path[] {new org.apache.hadoop.fs.Path("/concat/source")}));
    assertTrue(refused.getMessage().contains("/concat/target would have 4 blocks")
        && refused.getMessage().contains("dfs.namenode.fs-limits.max-blocks-per-file"), refused.getMessage());
    assertTrue(canopyClient.exists(new org.apache.hadoop.fs.Path("/concat/source")), "nothing was moved");
  }
}
