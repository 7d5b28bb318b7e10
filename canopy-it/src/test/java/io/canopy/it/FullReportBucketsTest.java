package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.datanode.ReportCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Design 018, step 4: a full block report is compared bucket by bucket with the hash buckets the database keeps, and
 * only the buckets that differ are read and diffed. A datanode restarted on an unchanged disk costs no diff and no
 * file transaction; one missing a replica costs one bucket and one file.
 */
@Timeout(300)
class FullReportBucketsTest {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final int FILES = 12;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(1).dataNodes(3)
      // an append while one of the three datanodes is down goes on with the other two
      .configure(conf -> conf.set("dfs.client.block.write.replace-datanode-on-failure.policy", "NEVER"))
      .awaitLeader().build();

  /** What the namenode's full-report counters moved by over one restart of a datanode. */
  private record Delta(long reports, long buckets, long bucketsDiffed, long filesChanged, long unknownReplicas) {
  }

  @Test
  void aDatanodeRestartedOnAnUnchangedDiskCostsOnlyTheComparisonOfItsBuckets() throws Exception {
    List<Path> files = writeFiles("/buckets/unchanged");
    Delta delta = restartAndMeasure(1, () -> { });
    assertTrue(delta.buckets() >= 3L * files.size(), "every block's bucket compared: " + delta);
    assertEquals(0, delta.bucketsDiffed(), "an unchanged disk matches every bucket: " + delta);
    assertEquals(0, delta.filesChanged(), delta.toString());
    assertEquals(0, delta.unknownReplicas(), delta.toString());
  }

  @Test
  void aReplicaLostWhileTheDatanodeWasDownCostsOneBucketAndIsReplicatedAgain() throws Exception {
    List<Path> files = writeFiles("/buckets/lost");
    DistributedFileSystem fs = CLUSTER.fileSystem();
    LocatedBlock lost = fs.getClient().getLocatedBlocks(files.get(3).toString(), 0).get(1);
    long blockId = lost.getBlock().getBlockId();
    java.nio.file.Path directory = CLUSTER.cluster().dataNodeDirectory(2);
    Delta delta = restartAndMeasure(2, () -> {
      try (Stream<java.nio.file.Path> all = Files.walk(directory)) {
        List<java.nio.file.Path> replica = all.filter(p -> p.getFileName().toString().startsWith("blk_" + blockId))
            .toList();
        assertEquals(2, replica.size(), "the block file and its checksums: " + replica);
        for (java.nio.file.Path file : replica) {
          Files.delete(file);
        }
      }
      // a datanode stopped cleanly saves its replica list and trusts it at the next start: lose it too, as a disk
      // changed while the datanode was down would make it do
      try (Stream<java.nio.file.Path> all = Files.walk(directory)) {
        for (java.nio.file.Path cache : all.filter(p -> p.getFileName().toString().equals("replicas")).toList()) {
          Files.delete(cache);
        }
      }
    });
    assertEquals(1, delta.bucketsDiffed(), "only the lost replica's bucket is diffed: " + delta);
    assertEquals(1, delta.filesChanged(), "one file's transaction: " + delta);
    assertEquals(0, delta.unknownReplicas(), "every replica reported is of a file: " + delta);
    Await.until("the lost replica replicated again", Duration.ofSeconds(60),
        () -> fileNames(directory).contains("blk_" + blockId) && threeReplicas(files.get(3)));
  }

  @Test
  void aReplicaLeftWithAnOldStampByAnAppendWhileTheDatanodeWasDownIsDiffedAndReplaced() throws Exception {
    List<Path> files = writeFiles("/buckets/stale");
    Path appended = files.get(5);
    DistributedFileSystem fs = CLUSTER.fileSystem();
    byte[] before = TestFiles.read(fs, appended);
    byte[] more = TestFiles.randomBytes(1_000, 99);
    String old = metaFile(fs.getClient().getLocatedBlocks(appended.toString(), 0).getLastLocatedBlock());
    Delta delta = restartAndMeasure(0, () -> {
      try (FSDataOutputStream out = fs.append(appended)) {
        out.write(more);
      }
    });
    LocatedBlock last = fs.getClient().getLocatedBlocks(appended.toString(), 0).getLastLocatedBlock();
    assertEquals(1, delta.bucketsDiffed(), "only the appended block's bucket differs: " + delta);
    assertEquals(1, delta.filesChanged(), "one file's transaction: " + delta);
    String current = metaFile(last);
    java.nio.file.Path directory = CLUSTER.cluster().dataNodeDirectory(0);
    Await.until("the replica with the old stamp replaced by one with the append's", Duration.ofSeconds(60), () -> {
      List<String> names = fileNames(directory);
      return names.contains(current) && !names.contains(old) && threeReplicas(appended);
    });
    byte[] expected = Arrays.copyOf(before, before.length + more.length);
    System.arraycopy(more, 0, expected, before.length, more.length);
    assertArrayEquals(expected, TestFiles.read(fs, appended));
  }

  /**
   * The names of the files under a datanode's directory; empty while the datanode moves or deletes one of them (a
   * walk meeting a file that just went away fails), so a poll looks again.
   */
  private static List<String> fileNames(java.nio.file.Path directory) throws IOException {
    try (Stream<java.nio.file.Path> all = Files.walk(directory)) {
      return all.map(p -> p.getFileName().toString()).toList();
    } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
      return List.of();
    }
  }

  /** The name of a replica's checksum file on a datanode's disk: block id and stamp. */
  private static String metaFile(LocatedBlock block) {
    return "blk_" + block.getBlock().getBlockId() + "_" + block.getBlock().getGenerationStamp() + ".meta";
  }

  private static List<Path> writeFiles(String directory) throws Exception {
    List<Path> files = new java.util.ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      Path path = new Path(directory + "/f" + i);
      TestFiles.write(CLUSTER.fileSystem(), path, TestFiles.randomBytes(2 * BLOCK_SIZE + 7, i), BLOCK_SIZE);
      files.add(path);
    }
    for (Path path : files) {
      Await.until("3 replicas of each block of " + path, Duration.ofSeconds(30), () -> threeReplicas(path));
    }
    return files;
  }

  private static boolean threeReplicas(Path path) throws IOException {
    for (BlockLocation location : CLUSTER.fileSystem().getFileBlockLocations(path, 0, Long.MAX_VALUE)) {
      if (location.getHosts().length != 3) {
        return false;
      }
    }
    return true;
  }

  private static Delta restartAndMeasure(int dataNode, MiniCanopyCluster.WhileStopped whileStopped)
      throws Exception {
    ReportCounters counters = CLUSTER.cluster().nameNode(0).reportCounters();
    long reports = counters.fullReportsApplied();
    long buckets = counters.fullReportBuckets();
    long diffed = counters.fullReportBucketsDiffed();
    long files = counters.fullReportFilesChanged();
    long unknown = counters.fullReportUnknownReplicas();
    CLUSTER.cluster().restartDataNode(dataNode, whileStopped);
    // the bucket counters move once a storage's report is applied in full
    Await.until("the restarted datanode's full report applied", Duration.ofSeconds(60),
        () -> counters.fullReportBuckets() > buckets);
    return new Delta(counters.fullReportsApplied() - reports, counters.fullReportBuckets() - buckets,
        counters.fullReportBucketsDiffed() - diffed, counters.fullReportFilesChanged() - files,
        counters.fullReportUnknownReplicas() - unknown);
  }
}
