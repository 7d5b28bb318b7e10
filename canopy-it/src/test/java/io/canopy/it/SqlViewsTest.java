package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.canopy.client.CanopyFileSystem;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operators' SQL views over the live metadata (migration V17, PostgreSQL): full paths, files and where their bytes
 * are, usage per owner and group, what lies beneath each directory, small against large files.
 */
@Timeout(300)
class SqlViewsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(1).dataNodes(3).build();

  @Test
  void viewsShowPathsUsageAndWhereBytesAre() throws Exception {
    FileSystem fs = CLUSTER.fileSystem();
    fs.mkdirs(new Path("/views/deep/er"));
    TestFiles.write(fs, new Path("/views/deep/er/big"), TestFiles.randomBytes(5_000, 1), (short) 2, 1024);
    fs.setOwner(new Path("/views/deep/er/big"), "alice", "analysts");
    Configuration canopyClient = new Configuration(CLUSTER.cluster().conf());
    canopyClient.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    try (FileSystem canopy = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), canopyClient)) {
      TestFiles.write(canopy, new Path("/views/small"), TestFiles.randomBytes(300, 2)); // kept in the database
    }
    fs.setOwner(new Path("/views/small"), "alice", "analysts");
    fs.create(new Path("/views/empty")).close();
    fs.setOwner(new Path("/views/empty"), "bob", "analysts");

    assertEquals(List.of(List.of("/views", "directory"), List.of("/views/deep", "directory"),
        List.of("/views/deep/er", "directory"), List.of("/views/deep/er/big", "file"),
        List.of("/views/empty", "file"), List.of("/views/small", "file")),
        rows("SELECT path, kind FROM paths WHERE path LIKE '/views%' ORDER BY path"));
    assertEquals(List.of(List.of("/views/deep/er/big", "datanodes", "5", "10000"),
        List.of("/views/empty", "empty", "0", "0"), List.of("/views/small", "database", "0", "300")),
        rows("SELECT path, stored_in, blocks, raw_bytes FROM files WHERE path LIKE '/views/%' ORDER BY path"));
    assertEquals(List.of(List.of("2", "5300", "10300", "1")),
        rows("SELECT files, bytes, raw_bytes, small_files FROM usage_by_user WHERE owner = 'alice'"));
    assertEquals(List.of(List.of("3", "5300")),
        rows("SELECT files, bytes FROM usage_by_group WHERE \"group\" = 'analysts'"));
    assertEquals(List.of(List.of("/views", "2", "3", "5300"), List.of("/views/deep", "1", "1", "5000")),
        rows("SELECT path, directories, files, bytes FROM directory_sizes WHERE path IN ('/views', '/views/deep') "
            + "ORDER BY bytes DESC"));
    assertEquals(List.of(List.of("database", "1"), List.of("datanodes", "1"), List.of("empty", "1")),
        rows("SELECT stored_in, count(*) FROM files WHERE path LIKE '/views/%' GROUP BY stored_in "
            + "ORDER BY stored_in"));
  }

  private static List<List<String>> rows(String sql) throws Exception {
    return StoreQueries.rows(CLUSTER.store(), sql);
  }
}
