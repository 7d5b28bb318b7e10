package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.CanopyFileSystem;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's own {@code hdfs fsck} ({@code DFSck}) against Canopy: it finds the namenode's HTTP server in the client
 * configuration, reads the report of {@code /fsck} and takes its exit status from the report's last line.
 */
@Timeout(300)
class HdfsToolsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().nameNodes(1).dataNodes(3).build();

  private record Fsck(int exitCode, String out) {
  }

  private static Fsck fsck(String... args) throws Exception {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
    conf.set("dfs.namenode.http-address", "127.0.0.1:" + CLUSTER.cluster().nameNode(0).httpAddress().getPort());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      int exit = ToolRunner.run(conf, new DFSck(conf, out), args);
      return new Fsck(exit, bytes.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aHealthyTreeIsReportedFileByFileWithItsTotals() throws Exception {
    TestFiles.write(CLUSTER.fileSystem(), new Path("/fsck/ok/large"), TestFiles.randomBytes(3 * 1024, 1),
        (short) 3, 1024);
    Configuration canopyClient = new Configuration(CLUSTER.cluster().conf());
    canopyClient.set("fs.hdfs.impl", CanopyFileSystem.class.getName());
    try (FileSystem fs = FileSystem.newInstance(URI.create(CLUSTER.cluster().uri()), canopyClient)) {
      TestFiles.write(fs, new Path("/fsck/ok/small"), TestFiles.randomBytes(100, 2)); // kept in the database
    }
    CLUSTER.fileSystem().mkdirs(new Path("/fsck/ok/empty-dir"));
    Fsck report = fsck("/fsck/ok", "-files", "-blocks", "-locations");
    assertEquals(0, report.exitCode(), report.out());
    assertTrue(report.out().contains("/fsck/ok/large 3072 bytes, replicated: replication=3, 3 block(s):  OK"),
        report.out());
    assertTrue(report.out().contains("/fsck/ok/empty-dir <dir>"), report.out());
    assertTrue(report.out().contains(" Total files:\t2"), report.out());
    assertTrue(report.out().contains(" Total dirs:\t\t\t2"), report.out());
    assertTrue(report.out().contains(" Total blocks (validated):\t4"), report.out());
    assertTrue(report.out().contains(" Missing blocks:\t\t0"), report.out());
    assertTrue(report.out().contains("[in the metadata database]"), report.out());
    assertTrue(report.out().contains(" Under-replicated blocks:\t0"),
        "a small file's block is no under-replicated one: " + report.out());
    assertTrue(report.out().strip().endsWith("The filesystem under path '/fsck/ok' is HEALTHY"), report.out());
  }

  @Test
  void aBigTreeShowsHdfssProgressDots() throws Exception {
    for (int i = 0; i < 250; i++) {
      CLUSTER.fileSystem().create(new Path("/fsck/many/f" + i)).close();
    }
    Fsck report = fsck("/fsck/many");
    assertEquals(0, report.exitCode(), report.out());
    assertTrue(report.out().contains("\n..\nStatus: HEALTHY"), "a dot every 100 files: " + report.out());
  }

  @Test
  void openFilesAreCountedApartAndShownWithOpenForWrite() throws Exception {
    try (FSDataOutputStream out = CLUSTER.fileSystem().create(new Path("/fsck/open/writing"))) {
      out.write(TestFiles.randomBytes(10, 3));
      out.hflush();
      Fsck report = fsck("/fsck/open", "-files", "-openforwrite");
      assertEquals(0, report.exitCode(), report.out());
      assertTrue(report.out().contains("Files currently being written: 1"), report.out());
      assertTrue(report.out().contains("/fsck/open/writing 0 bytes") || report.out().contains("OPENFORWRITE"),
          report.out());
    }
  }

  @Test
  void aMissingPathAndAnotherUsersDirectoryGetHdfssAnswers() throws Exception {
    // DFSck resolves the path before it calls the namenode; the servlet's answer for a missing one, as raw HTTP:
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    try (var in = new java.net.URL("http://127.0.0.1:" + CLUSTER.cluster().nameNode(0).httpAddress().getPort()
        + "/fsck?ugi=" + user + "&path=%2Ffsck%2Fnothing-here").openStream()) {
      String missing = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(missing.strip().endsWith("Path '/fsck/nothing-here' does not exist"), missing);
    }

    // as in HDFS, any user may check what it can read; a directory it cannot read fails the check
    TestFiles.write(CLUSTER.fileSystem(), new Path("/fsck/shared/f"), TestFiles.randomBytes(10, 4));
    CLUSTER.fileSystem().mkdirs(new Path("/fsck/private"));
    CLUSTER.fileSystem().setPermission(new Path("/fsck/private"), new org.apache.hadoop.fs.permission.FsPermission(
        (short) 0700));
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"users"});
    Fsck shared = mallory.doAs((PrivilegedExceptionAction<Fsck>) () -> fsck("/fsck/shared"));
    assertEquals(0, shared.exitCode(), shared.out());
    assertTrue(shared.out().contains("FSCK started by mallory"), shared.out());
    Fsck refused = mallory.doAs((PrivilegedExceptionAction<Fsck>) () -> fsck("/fsck/private"));
    assertTrue(refused.exitCode() != 0, refused.out());
    assertTrue(refused.out().contains("Permission denied: user=mallory"), refused.out());
    assertTrue(refused.out().strip().endsWith("Fsck on path '/fsck/private' FAILED"), refused.out());

    Fsck unsupported = fsck("/", "-delete");
    assertTrue(unsupported.out().contains("fsck -delete is not supported by Canopy"), unsupported.out());
  }
}
