package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.TestFiles.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import io.canopy.namenode.SmallFilesConfig;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The small-file threshold changed while files exist (design 016): files keep their place when it is lowered, and a
 * client that still knows the old threshold has the bytes it holds declined and written through datanodes instead;
 * a writer that dies after appending to a small file leaves it as it was once lease recovery closes it.
 */
class SmallFilesThresholdTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt(SmallFilesConfig.MAX_BYTES, 8192)).dataNodes(1).build();

  private static FileSystem canopyClient() throws IOException {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    return FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), conf);
  }

  private static long firstBlockId(Path path) throws IOException {
    return CLUSTER.fileSystem().getClient().getLocatedBlocks(path.toString(), 0).get(0).getBlock().getBlockId();
  }

  @Test
  void aLoweredThresholdLeavesFilesWhereTheyAreAndClientsThatMissedItFallBackToDatanodes() throws Exception {
    Path stored = path("/threshold/stored");
    byte[] storedBytes = randomBytes(6000, 1);
    try (FileSystem early = canopyClient()) {
      TestFiles.write(early, stored, storedBytes);
      assertTrue(firstBlockId(stored) < 0, "6000 bytes are in the database under 8192");
      CLUSTER.cluster().conf().setInt(SmallFilesConfig.MAX_BYTES, 2048);
      CLUSTER.cluster().restartNameNode(0);
      Await.until("the restarted namenode answers", Duration.ofSeconds(30), () -> answers(early, stored)
          && answers(CLUSTER.fileSystem(), stored));
      assertArrayEquals(storedBytes, TestFiles.read(early, stored), "a lowered threshold moves nothing");
      assertArrayEquals(storedBytes, TestFiles.read(CLUSTER.fileSystem(), stored));

      // the early client still believes in 8192: the namenode declines its 4000 bytes, they go through a datanode
      Path declined = path("/threshold/declined");
      byte[] declinedBytes = randomBytes(4000, 2);
      TestFiles.write(early, declined, declinedBytes);
      assertTrue(firstBlockId(declined) > 0, "declined bytes went to a datanode");
      assertArrayEquals(declinedBytes, TestFiles.read(early, declined));
    }
    try (FileSystem late = canopyClient()) {
      Path small = path("/threshold/small");
      byte[] smallBytes = randomBytes(2048, 3);
      TestFiles.write(late, small, smallBytes);
      assertTrue(firstBlockId(small) < 0, "the new threshold itself still fits");
      assertArrayEquals(smallBytes, TestFiles.read(late, small));
    }
    assertEquals(java.util.List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  @Test
  void aWriterThatDiesAfterAppendingToASmallFileLeavesItIntactAfterLeaseRecovery() throws Exception {
    Path file = path("/append-crash/f");
    byte[] data = randomBytes(1000, 4);
    try (FileSystem writer = canopyClient()) {
      TestFiles.write(writer, file, data);
      FSDataOutputStream appending = writer.append(file);
      appending.write(randomBytes(100, 5)); // buffered, never sent: the writer "dies" here
      DistributedFileSystem other = CLUSTER.cluster().fileSystem(0);
      Await.until(file + " is recovered", Duration.ofSeconds(30), () -> other.recoverLease(file));
      assertArrayEquals(data, TestFiles.read(other, file));
      assertTrue(firstBlockId(file) < 0, "still a database-resident file");
    }
    assertEquals(java.util.List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  private static boolean answers(FileSystem fs, Path file) {
    try {
      TestFiles.read(fs, file);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
