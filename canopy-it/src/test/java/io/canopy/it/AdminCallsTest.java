package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.ECAdmin;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The calls administrators' tools make: dfsadmin -report and -listOpenFiles, ec -listPolicies, located status. */
@Timeout(300)
class AdminCallsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setLong("dfs.blocksize", 64 * 1024)).dataNodes(2).build();

  private static ClientProtocol namenode() throws IOException {
    return CLUSTER.cluster().fileSystem().getClient().getNamenode();
  }

  /** Runs an admin tool in-process; returns what it printed, asserting its exit code. */
  private static String run(Tool tool, int expectedExit, String... args) throws Exception {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
    tool.setConf(conf);
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int exit;
    try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      System.setErr(out);
      exit = ToolRunner.run(conf, tool, args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, String.join(" ", args) + " printed: " + output);
    return output;
  }

  @Test
  void dfsadminReportCompletes() throws Exception {
    String report = run(new DFSAdmin(), 0, "-report");
    assertTrue(report.contains("Live datanodes (2)"), report);
    assertTrue(report.contains("Missing blocks: 0"), report);
    ReplicatedBlockStats stats = namenode().getReplicatedBlockStats();
    assertEquals(0, stats.getCorruptBlocks());
    assertEquals(0, stats.getMissingReplicaBlocks());
    DatanodeStorageReport[] storages = namenode().getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE);
    assertEquals(2, storages.length);
    for (DatanodeStorageReport storage : storages) {
      assertTrue(storage.getStorageReports().length >= 1, "a datanode without storages");
      assertTrue(storage.getStorageReports()[0].getCapacity() > 0, "storage without capacity");
    }
    assertEquals(0, namenode().getDatanodeStorageReport(HdfsConstants.DatanodeReportType.DEAD).length);
  }

  @Test
  void listOpenFilesShowsFilesBeingWrittenOnly() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem();
    fs.mkdirs(new org.apache.hadoop.fs.Path("/admin/open/sub"));
    TestFiles.write(fs, new org.apache.hadoop.fs.Path("/admin/open/closed"), new byte[100], 64 * 1024);
    List<FSDataOutputStream> streams = new ArrayList<>();
    try {
      for (String name : List.of("/admin/open/a", "/admin/open/sub/b", "/admin/elsewhere")) {
        FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(name));
        out.write(new byte[10]);
        out.hflush();
        streams.add(out);
      }
      BatchedEntries<OpenFileEntry> all = namenode().listOpenFiles(0,
          EnumSet.of(OpenFilesType.ALL_OPEN_FILES), "/");
      List<String> paths = new ArrayList<>();
      long previousId = 0;
      for (int i = 0; i < all.size(); i++) {
        paths.add(all.get(i).getFilePath());
        assertTrue(all.get(i).getId() > previousId, "entries not in inode id order: " + paths);
        previousId = all.get(i).getId();
      }
      assertTrue(paths.containsAll(List.of("/admin/open/a", "/admin/open/sub/b", "/admin/elsewhere")), paths.toString());
      assertFalse(paths.contains("/admin/open/closed"), paths.toString());
      assertFalse(all.hasMore());

      BatchedEntries<OpenFileEntry> under = namenode().listOpenFiles(0,
          EnumSet.of(OpenFilesType.ALL_OPEN_FILES), "/admin/open");
      List<String> underPaths = new ArrayList<>();
      for (int i = 0; i < under.size(); i++) {
        underPaths.add(under.get(i).getFilePath());
      }
      assertEquals(List.of("/admin/open/a", "/admin/open/sub/b"), underPaths.stream().sorted().toList());
      String printed = run(new DFSAdmin(), 0, "-listOpenFiles", "-path", "/admin/open");
      assertTrue(printed.contains("/admin/open/sub/b"), printed);
      assertFalse(printed.contains("/admin/elsewhere"), printed);
    } finally {
      for (FSDataOutputStream out : streams) {
        out.close();
      }
    }
    BatchedEntries<OpenFileEntry> after = namenode().listOpenFiles(0, EnumSet.of(OpenFilesType.ALL_OPEN_FILES),
        "/admin");
    assertEquals(0, after.size(), "closed files still listed as open");
  }

  @Test
  void erasureCodingIsReportedAsReplicationOnly() throws Exception {
    String policies = run(new ECAdmin(new Configuration()), 0, "-listPolicies");
    assertTrue(policies.contains("replication"), policies);
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem();
    fs.mkdirs(new org.apache.hadoop.fs.Path("/admin/ec"));
    assertNull(fs.getErasureCodingPolicy(new org.apache.hadoop.fs.Path("/admin/ec")));
    assertThrows(FileNotFoundException.class,
        () -> fs.getErasureCodingPolicy(new org.apache.hadoop.fs.Path("/admin/no-such")));
  }

  @Test
  void locatedFileInfoCarriesEveryBlock() throws Exception {
    DistributedFileSystem fs = CLUSTER.cluster().fileSystem();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/admin/located");
    TestFiles.write(fs, file, TestFiles.randomBytes(3 * 64 * 1024 + 10, 7), 64 * 1024);
    HdfsLocatedFileStatus status = (HdfsLocatedFileStatus) fs.getClient().getLocatedFileInfo("/admin/located", false);
    assertEquals(3 * 64 * 1024 + 10, status.getLen());
    assertEquals(4, status.getLocatedBlocks().locatedBlockCount());
    assertTrue(status.getLocatedBlocks().isLastBlockComplete());
    assertNull(fs.getClient().getLocatedFileInfo("/admin/not-there", false));
    assertTrue(fs.getClient().getLocatedFileInfo("/admin", false).isDirectory());
  }
}
