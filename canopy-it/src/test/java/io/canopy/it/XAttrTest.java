package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.QueryResult;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.XAttrNotFoundException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Extended attributes through the stock client and shell: round trips, the CREATE / REPLACE flags, HDFS's limits
 * (set low here as HDFS's own tests do), the namespaces (trusted for the superuser only, security / system / raw
 * never), and removal with their inode on delete and overwrite.
 */
@Timeout(300)
class XAttrTest {
  private static final int MAX_PER_INODE = 3;
  private static final int MAX_SIZE = 24;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setInt("dfs.namenode.fs-limits.max-xattrs-per-inode", MAX_PER_INODE);
    conf.setInt("dfs.namenode.fs-limits.max-xattr-size", MAX_SIZE);
  }).dataNodes(1).build();
  static DistributedFileSystem fs;

  @BeforeAll
  static void client() throws IOException {
    fs = CLUSTER.fileSystem();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static org.apache.hadoop.fs.Path file(String name) throws IOException {
    TestFiles.write(fs, path(name), new byte[] {1});
    return path(name);
  }

  /** A refusal the client passes on as a RemoteException naming HDFS's class; returns the message's first line. */
  private static String remote(Class<?> exceptionClass, IoCall call) {
    RemoteException error = assertThrows(RemoteException.class, call::run);
    assertEquals(exceptionClass.getName(), error.getClassName(), error.getMessage());
    return error.getMessage().split("\n", 2)[0];
  }

  private static Map<String, String> text(Map<String, byte[]> xattrs) {
    Map<String, String> result = new TreeMap<>();
    xattrs.forEach((name, value) -> result.put(name, new String(value, StandardCharsets.UTF_8)));
    return result;
  }

  @Test
  void attributesRoundTripAndTheFlagsDecideBetweenCreateAndReplace() throws IOException {
    org.apache.hadoop.fs.Path dir = path("/flags");
    fs.mkdirs(dir);
    fs.setXAttr(dir, "user.a", bytes("1"));
    fs.setXAttr(dir, "user.empty", new byte[0]);
    fs.setXAttr(dir, "trusted.t", bytes("t"), EnumSet.of(XAttrSetFlag.CREATE));
    assertArrayEquals(bytes("1"), fs.getXAttr(dir, "USER.a"), "the namespace prefix is case-insensitive");
    assertEquals(Map.of("user.a", "1", "user.empty", "", "trusted.t", "t"), text(fs.getXAttrs(dir)));
    assertEquals(Map.of("user.a", "1"), text(fs.getXAttrs(dir, List.of("user.a"))));
    assertEquals(List.of("trusted.t", "user.a", "user.empty"), fs.listXAttrs(dir).stream().sorted().toList());

    IOException exists = assertThrows(IOException.class,
        () -> fs.setXAttr(dir, "user.a", bytes("2"), EnumSet.of(XAttrSetFlag.CREATE)));
    assertTrue(exists.getMessage().contains("XAttr: a already exists. The REPLACE flag must be specified."),
        exists.getMessage());
    IOException missing = assertThrows(IOException.class,
        () -> fs.setXAttr(dir, "user.b", bytes("2"), EnumSet.of(XAttrSetFlag.REPLACE)));
    assertTrue(missing.getMessage().contains("XAttr: b does not exist. The CREATE flag must be specified."),
        missing.getMessage());
    fs.setXAttr(dir, "user.a", bytes("2"), EnumSet.of(XAttrSetFlag.REPLACE));
    assertArrayEquals(bytes("2"), fs.getXAttr(dir, "user.a"));

    IOException notFound = assertThrows(IOException.class, () -> fs.getXAttr(dir, "user.b"));
    assertTrue(notFound.getMessage().contains(XAttrNotFoundException.DEFAULT_EXCEPTION_MSG), notFound.getMessage());
    assertThrows(IOException.class, () -> fs.getXAttrs(dir, List.of("user.a", "user.b")),
        "every named attribute must exist");
    fs.removeXAttr(dir, "user.a");
    assertEquals(Map.of("user.empty", "", "trusted.t", "t"), text(fs.getXAttrs(dir)));
    assertEquals("No matching attributes found for remove operation",
        remote(IOException.class, () -> fs.removeXAttr(dir, "user.a")));

    assertThrows(FileNotFoundException.class, () -> fs.listXAttrs(path("/flags/missing")));
    FileNotFoundException cannotFind = assertThrows(FileNotFoundException.class,
        () -> fs.setXAttr(path("/flags/missing"), "user.a", bytes("1")));
    assertTrue(cannotFind.getMessage().contains("cannot find /flags/missing"), cannotFind.getMessage());
  }

  @Test
  void limitsOnSizeAndCountAreHdfsLimitsWithHdfsMessages() throws IOException {
    org.apache.hadoop.fs.Path f = file("/limits");
    // name "a" (1 byte) + value: at most MAX_SIZE bytes together
    fs.setXAttr(f, "user.a", new byte[MAX_SIZE - 1]);
    String tooBig = remote(HadoopIllegalArgumentException.class, () -> fs.setXAttr(f, "user.b", new byte[MAX_SIZE]));
    assertEquals("The XAttr is too big. The maximum combined size of the name and value is " + MAX_SIZE
        + ", but the total size is " + (MAX_SIZE + 1), tooBig);
    fs.setXAttr(f, "user.b", bytes("b"));
    fs.setXAttr(f, "trusted.c", bytes("c")); // trusted attributes count too
    String tooMany = remote(IOException.class, () -> fs.setXAttr(f, "user.d", bytes("d")));
    assertEquals("Cannot add additional XAttr to inode, would exceed limit of " + MAX_PER_INODE, tooMany);
    fs.setXAttr(f, "user.b", bytes("replaced"), EnumSet.of(XAttrSetFlag.REPLACE)); // replacing adds none
    assertEquals(3, fs.listXAttrs(f).size());
  }

  @Test
  void trustedIsForTheSuperuserAndSecuritySystemRawForNobody() throws Exception {
    org.apache.hadoop.fs.Path dir = path("/namespaces");
    fs.mkdirs(dir);
    fs.setPermission(dir, new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
    fs.setXAttr(dir, "trusted.secret", bytes("s"));
    fs.setXAttr(dir, "user.open", bytes("o"));
    for (String name : new String[] {"security.x", "system.x", "raw.x"}) {
      AccessControlException denied = assertThrows(AccessControlException.class,
          () -> fs.setXAttr(dir, name, bytes("v")));
      assertTrue(denied.getMessage().startsWith("User doesn't have permission for xattr: " + name),
          denied.getMessage());
    }


    UserGroupInformation user = UserGroupInformation.createUserForTesting("xattr-user", new String[] {"users"});
    user.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem userFs = FileSystem.newInstance(fs.getUri(), new Configuration(CLUSTER.cluster().conf()))) {
        assertEquals(Map.of("user.open", "o"), text(userFs.getXAttrs(dir)), "trusted attributes are hidden");
        assertEquals(List.of("user.open"), userFs.listXAttrs(dir));
        assertThrows(AccessControlException.class, () -> userFs.getXAttr(dir, "trusted.secret"));
        AccessControlException set = assertThrows(AccessControlException.class,
            () -> userFs.setXAttr(dir, "trusted.other", bytes("v")));
        assertTrue(set.getMessage().contains("User doesn't have permission for xattr: trusted.other"),
            set.getMessage());
        assertThrows(AccessControlException.class, () -> userFs.removeXAttr(dir, "trusted.secret"));
        userFs.setXAttr(dir, "user.mine", bytes("m"));
      }
      return null;
    });
    assertEquals(Map.of("trusted.secret", "s", "user.open", "o", "user.mine", "m"), text(fs.getXAttrs(dir)));
  }

  @Test
  void attributesGoWithTheirInodeOnDeleteAndOverwriteAndFollowItOnRename() throws Exception {
    fs.mkdirs(path("/gone/tree/sub"));
    fs.setXAttr(path("/gone/tree"), "user.dir", bytes("d"));
    org.apache.hadoop.fs.Path inner = file("/gone/tree/sub/file");
    fs.setXAttr(inner, "user.file", bytes("f"));
    long innerId = fs.getClient().getFileInfo("/gone/tree/sub/file").getFileId();
    long treeId = fs.getClient().getFileInfo("/gone/tree").getFileId();

    assertTrue(fs.rename(path("/gone/tree"), path("/gone/moved")));
    assertEquals(Map.of("user.dir", "d"), text(fs.getXAttrs(path("/gone/moved"))), "a move keeps the inode");
    assertTrue(fs.delete(path("/gone/moved"), true));
    assertEquals(0, rowsOf(treeId) + rowsOf(innerId), "a recursive delete removes its inodes' attributes");

    org.apache.hadoop.fs.Path overwritten = file("/gone/overwritten");
    fs.setXAttr(overwritten, "user.old", bytes("old"));
    long oldId = fs.getClient().getFileInfo("/gone/overwritten").getFileId();
    file("/gone/overwritten"); // create with overwrite replaces the inode
    assertEquals(Map.of(), fs.getXAttrs(overwritten));
    assertEquals(0, rowsOf(oldId));

    org.apache.hadoop.fs.Path replaced = file("/gone/replaced");
    fs.setXAttr(replaced, "user.old", bytes("old"));
    long replacedId = fs.getClient().getFileInfo("/gone/replaced").getFileId();
    org.apache.hadoop.fs.Path source = file("/gone/source");
    fs.setXAttr(source, "user.new", bytes("new"));
    fs.rename(source, replaced, Options.Rename.OVERWRITE);
    assertEquals(Map.of("user.new", "new"), text(fs.getXAttrs(replaced)));
    assertEquals(0, rowsOf(replacedId));
  }

  private static long rowsOf(long inodeId) throws IOException {
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      QueryResult result = StoreQueries.query(store, "SELECT count(*) FROM xattrs WHERE inode_id = " + inodeId, 1);
      return Long.parseLong(result.rows().get(0).get(0));
    }
  }

  @Test
  void theShellSetsGetsAndRemovesAttributes() throws Exception {
    file("/shell-file");
    shell(0, "-setfattr", "-n", "user.color", "-v", "blue", "/shell-file");
    String dump = shell(0, "-getfattr", "-d", "/shell-file");
    assertTrue(dump.contains("# file: /shell-file"), dump);
    assertTrue(dump.contains("user.color=\"blue\""), dump);
    shell(0, "-setfattr", "-x", "user.color", "/shell-file");
    assertEquals(Map.of(), fs.getXAttrs(path("/shell-file")));
  }

  private static String shell(int expectedExit, String... args) throws Exception {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    int exit;
    try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      exit = ToolRunner.run(conf, new FsShell(), args);
    } finally {
      System.setOut(originalOut);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, "exit code of " + String.join(" ", args) + "; output: " + output);
    return output;
  }

  private interface IoCall {
    void run() throws Exception;
  }
}
