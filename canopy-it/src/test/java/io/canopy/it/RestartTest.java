package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A full stop and start keeps the namespace and the data: nothing lived only in a namenode's memory. */
@Timeout(300)
class RestartTest {
  private static final int BLOCK_SIZE = 64 * 1024;

  @TempDir
  Path directory;

  @Test
  void namespaceAndDataSurviveAFullRestart() throws IOException {
    byte[] big = TestFiles.randomBytes(4 * BLOCK_SIZE + 99, 21);
    byte[] small = TestFiles.randomBytes(10, 22);
    String listingBefore;
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, MiniCanopyCluster.testConfiguration(), 1,
        3)) {
      DistributedFileSystem fs = cluster.fileSystem();
      fs.mkdirs(new org.apache.hadoop.fs.Path("/restart/empty-dir"));
      TestFiles.write(fs, new org.apache.hadoop.fs.Path("/restart/big"), big, BLOCK_SIZE);
      TestFiles.write(fs, new org.apache.hadoop.fs.Path("/restart/sub/small"), small, BLOCK_SIZE);
      fs.setPermission(new org.apache.hadoop.fs.Path("/restart/sub"), new FsPermission((short) 0700));
      listingBefore = listing(fs);
    }
    try (MiniCanopyCluster cluster = MiniCanopyCluster.start(directory, MiniCanopyCluster.testConfiguration(), 1,
        3)) {
      DistributedFileSystem fs = cluster.fileSystem();
      assertEquals(listingBefore, listing(fs));
      assertArrayEquals(big, TestFiles.read(fs, new org.apache.hadoop.fs.Path("/restart/big")));
      assertArrayEquals(small, TestFiles.read(fs, new org.apache.hadoop.fs.Path("/restart/sub/small")));
      assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path("/restart/after")), "the namespace still takes writes");
    }
  }

  private static String listing(DistributedFileSystem fs) throws IOException {
    StringBuilder out = new StringBuilder();
    var files = fs.listFiles(new org.apache.hadoop.fs.Path("/"), true);
    while (files.hasNext()) {
      FileStatus status = files.next();
      out.append(status.getPath().toUri().getPath()).append(' ').append(status.getLen()).append(' ')
          .append(status.getModificationTime()).append('\n');
    }
    for (FileStatus status : fs.listStatus(new org.apache.hadoop.fs.Path("/restart"))) {
      out.append(status.getPath().getName()).append(' ').append(status.getPermission()).append('\n');
    }
    return out.toString();
  }
}
