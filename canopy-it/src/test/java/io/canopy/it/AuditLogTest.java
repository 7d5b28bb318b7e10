package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.audit.AuditLog;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HDFS's audit log from a running namenode, as an HDFS operator's logging configuration sees it (an appender on HDFS's
 * audit logger): each namespace operation over RPC and WebHDFS once, with HDFS's command names, the caller, its
 * address and protocol; a call refused for permissions with {@code allowed=false}; write-pipeline calls not at all.
 */
@Timeout(120)
class AuditLogTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(1).build();

  /** Collects the audit logger's messages. */
  private static final class Lines extends AppenderSkeleton {
    final List<String> lines = new ArrayList<>();

    @Override
    protected synchronized void append(LoggingEvent event) {
      lines.add(event.getRenderedMessage());
    }

    synchronized List<String> taken() {
      List<String> taken = new ArrayList<>(lines);
      lines.clear();
      return taken;
    }

    @Override
    public void close() {
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  private final Lines lines = new Lines();
  private Level levelBefore;

  @BeforeEach
  void listen() {
    Logger audit = Logger.getLogger(AuditLog.LOGGER_NAME);
    levelBefore = audit.getLevel();
    audit.setLevel(Level.INFO);
    audit.addAppender(lines);
  }

  @AfterEach
  void stopListening() {
    Logger audit = Logger.getLogger(AuditLog.LOGGER_NAME);
    audit.removeAppender(lines);
    audit.setLevel(levelBefore);
  }

  private static String only(List<String> lines, String cmd) {
    List<String> matching = lines.stream().filter(line -> line.contains("\tcmd=" + cmd + "\t")).toList();
    assertEquals(1, matching.size(), "one " + cmd + " line in " + lines);
    return matching.get(0);
  }

  @Test
  void everyNamespaceOperationIsWrittenOnceInHdfsFormat() throws Exception {
    DistributedFileSystem alice = CLUSTER.users().as("alice", "staff");
    DistributedFileSystem admin = CLUSTER.fileSystem();
    admin.mkdirs(new Path("/audit"));
    admin.setPermission(new Path("/audit"), new FsPermission((short) 0777));
    lines.taken();

    alice.mkdirs(new Path("/audit/d"));
    TestFiles.write(alice, new Path("/audit/d/f\tname"), TestFiles.randomBytes(10, 1), 1024 * 1024);
    alice.rename(new Path("/audit/d/f\tname"), new Path("/audit/g"));
    alice.getFileStatus(new Path("/audit/g"));
    alice.listStatus(new Path("/audit"));
    TestFiles.read(alice, new Path("/audit/g"));
    alice.setPermission(new Path("/audit/g"), new FsPermission((short) 0600));
    alice.delete(new Path("/audit/d"), true);
    List<String> written = lines.taken();

    assertEquals("allowed=true\tugi=alice (auth:SIMPLE)\tip=/127.0.0.1\tcmd=mkdirs\tsrc=/audit/d\tdst=null\t"
        + "perm=null\tproto=rpc", only(written, "mkdirs"));
    // the status after the operation where the call returns one; paths escaped as Java strings, as HDFS does
    assertEquals("allowed=true\tugi=alice (auth:SIMPLE)\tip=/127.0.0.1\tcmd=create\tsrc=/audit/d/f\\tname\t"
        + "dst=null\tperm=alice:supergroup:rw-r--r--\tproto=rpc", only(written, "create"));
    assertTrue(only(written, "rename").contains("\tsrc=/audit/d/f\\tname\tdst=/audit/g\t"), written.toString());
    assertTrue(only(written, "open").contains("\tsrc=/audit/g\t"), written.toString());
    assertTrue(only(written, "setPermission").contains("\tsrc=/audit/g\t"), written.toString());
    assertTrue(only(written, "delete").contains("\tsrc=/audit/d\t"), written.toString());
    assertTrue(only(written, "listStatus").contains("\tsrc=/audit\t"), written.toString());
    assertTrue(written.stream().anyMatch(line -> line.contains("\tcmd=getfileinfo\tsrc=/audit/g\t")),
        written.toString());
    for (String line : written) {
      assertTrue(Pattern.matches("allowed=true\tugi=alice \\(auth:SIMPLE\\)\tip=/127\\.0\\.0\\.1\tcmd=[^\t]+\t"
          + "src=[^\t]+\tdst=[^\t]+\tperm=[^\t]+\tproto=rpc", line), line);
      for (String pipeline : new String[] {"addBlock", "complete", "renewLease", "getServerDefaults"}) {
        assertTrue(!line.contains("cmd=" + pipeline + "\t"), "a write-pipeline call is not audited: " + line);
      }
    }
  }

  @Test
  void answersOfFalseAreWrittenAsHdfsWritesThem() throws Exception {
    DistributedFileSystem admin = CLUSTER.fileSystem();
    admin.mkdirs(new Path("/falses"));
    lines.taken();
    admin.rename(new Path("/falses/missing"), new Path("/falses/other"));
    admin.setReplication(new Path("/falses"), (short) 2); // a directory: false
    admin.delete(new Path("/falses/missing"), false);
    admin.getFileStatus(new Path("/falses"));
    List<String> written = lines.taken();
    assertTrue(written.stream().noneMatch(line -> line.contains("\tcmd=rename\t")
        || line.contains("\tcmd=setReplication\t")), "HDFS writes neither when it answers false: " + written);
    assertTrue(only(written, "delete").startsWith("allowed=false\t"), "a delete's answer is its allowed field");
    assertTrue(only(written, "getfileinfo").endsWith("\tperm=null\tproto=rpc"), "no status for a read: " + written);
  }

  @Test
  void anFsckIsOneLineAsInHdfs() throws Exception {
    CLUSTER.fileSystem().mkdirs(new Path("/checked/a/b"));
    lines.taken();
    URL url = new URL("http://127.0.0.1:" + CLUSTER.cluster().nameNode(0).httpAddress().getPort()
        + "/fsck?path=/checked&ugi=" + System.getProperty("user.name"));
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    String report = new String(connection.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    connection.disconnect();
    assertTrue(report.contains("is HEALTHY"), report);
    List<String> written = lines.taken();
    assertEquals(1, written.size(), "one line for the whole check, not one per directory: " + written);
    assertTrue(written.get(0).contains("\tcmd=fsck\tsrc=/checked\tdst=null\t"), written.toString());
  }

  @Test
  void aCallRefusedForPermissionsIsWrittenAsNotAllowed() throws Exception {
    DistributedFileSystem admin = CLUSTER.fileSystem();
    admin.mkdirs(new Path("/private"), new FsPermission((short) 0700));
    lines.taken();
    DistributedFileSystem bob = CLUSTER.users().as("bob", "bob");
    assertThrows(AccessControlException.class, () -> bob.mkdirs(new Path("/private/x")));
    assertEquals("allowed=false\tugi=bob (auth:SIMPLE)\tip=/127.0.0.1\tcmd=mkdirs\tsrc=/private/x\tdst=null\t"
        + "perm=null\tproto=rpc", only(lines.taken(), "mkdirs"));
  }

  @Test
  void webHdfsCallsAreWrittenWithTheirClientsAddressAndProtocol() throws Exception {
    CLUSTER.fileSystem().mkdirs(new Path("/web"));
    CLUSTER.fileSystem().setPermission(new Path("/web"), new FsPermission((short) 0777));
    lines.taken();
    URL url = new URL("http://127.0.0.1:" + CLUSTER.cluster().nameNode(0).httpAddress().getPort()
        + "/webhdfs/v1/web/made?op=MKDIRS&user.name=carol");
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    connection.setRequestMethod("PUT");
    assertEquals(200, connection.getResponseCode());
    connection.disconnect();
    assertEquals("allowed=true\tugi=carol (auth:SIMPLE)\tip=/127.0.0.1\tcmd=mkdirs\tsrc=/web/made\tdst=null\t"
        + "perm=null\tproto=webhdfs", only(lines.taken(), "mkdirs"));
  }
}
