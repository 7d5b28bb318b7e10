package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A file renamed again and again while it is written: HDFS lets a writer keep writing a renamed file (its calls
 * name the file by id), and replicas the datanodes report meanwhile must be recorded, never discarded.
 */
@Timeout(180)
class RenameWhileWritingTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(3).build();

  @Test
  void writerSurvivesRenamesOfItsFile() throws Exception {
    DistributedFileSystem writerFs = CLUSTER.cluster().fileSystem();
    DistributedFileSystem renamerFs = CLUSTER.cluster().fileSystem();
    org.apache.hadoop.fs.Path[] names = {new org.apache.hadoop.fs.Path("/moving/one"),
        new org.apache.hadoop.fs.Path("/moving/two")};
    byte[] data = TestFiles.randomBytes(24 * BLOCK_SIZE + 100, 51);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    FSDataOutputStream out = writerFs.create(names[0], true, 4096, (short) 3, BLOCK_SIZE);
    Future<Integer> renamer = pool.submit(() -> {
      int renames = 0;
      while (writing.get()) {
        assertTrue(renamerFs.rename(names[renames % 2], names[(renames + 1) % 2]));
        renames++;
      }
      return renames;
    });
    try {
      for (int offset = 0; offset < data.length; offset += 8192) {
        out.write(data, offset, Math.min(8192, data.length - offset));
        if (offset % BLOCK_SIZE == 0) {
          out.hflush();
        }
      }
      out.close();
    } finally {
      writing.set(false);
    }
    int renames = renamer.get(60, TimeUnit.SECONDS);
    pool.shutdown();
    assertTrue(renames > 10, "the file moved while being written (" + renames + " renames)");
    org.apache.hadoop.fs.Path finalName = names[renames % 2];
    assertArrayEquals(data, TestFiles.read(writerFs, finalName));
    // Every replica reported during the renames was recorded: each block still has its three.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    BlockLocation[] blocks;
    do {
      blocks = writerFs.getFileBlockLocations(finalName, 0, data.length);
      boolean allThree = true;
      for (BlockLocation block : blocks) {
        allThree &= block.getHosts().length == 3;
      }
      if (allThree) {
        break;
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    assertEquals(25, blocks.length);
    for (BlockLocation block : blocks) {
      assertEquals(3, block.getHosts().length, "replicas of the block at offset " + block.getOffset());
    }
  }
}
