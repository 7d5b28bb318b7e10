package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.StoragePolicyAdmin;
import org.apache.hadoop.hdfs.tools.snapshot.LsSnapshottableDir;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Storage policies (HDFS's default suite, set, unset, inherited from the nearest ancestor, reported by getFileInfo
 * and listings), and what a user sees of the calls a default cluster refuses: snapshots from {@code hdfs dfs},
 * {@code hdfs dfsadmin} and {@code hdfs lsSnapshottableDir}, createSymlink while symlinks are disabled, and the
 * storage policy satisfier.
 */
@Timeout(300)
class StoragePolicyAndUnsupportedCallsTest {
  private static final byte HOT = 7;
  private static final byte COLD = 2;
  private static final byte ALL_SSD = 12;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().dataNodes(1).build();
  static DistributedFileSystem fs;
  static ClientProtocol namenode;

  @BeforeAll
  static void clients() throws IOException {
    fs = CLUSTER.fileSystem();
    namenode = fs.getClient().getNamenode();
  }

  private static void file(String name) throws IOException {
    TestFiles.write(fs, path(name), new byte[] {1});
  }

  private static String policyOf(String path) throws IOException {
    return fs.getStoragePolicy(path(path)).getName();
  }

  /** A refusal the client passes on as a RemoteException naming HDFS's class; returns the message's first line. */
  private static String remote(Class<?> exceptionClass, IoCall call) {
    RemoteException error = assertThrows(RemoteException.class, call::run);
    assertEquals(exceptionClass.getName(), error.getClassName(), error.getMessage());
    return error.getMessage().split("\n", 2)[0];
  }

  @Test
  void theDefaultSuiteIsHdfssAndNothingSetMeansTheDefaultPolicy() throws IOException {
    Set<String> names = fs.getAllStoragePolicies().stream().map(BlockStoragePolicySpi::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(List.of("ALL_NVDIMM", "ALL_SSD", "COLD", "HOT", "LAZY_PERSIST", "ONE_SSD",
        "PROVIDED", "WARM")), names);
    fs.mkdirs(path("/plain"));
    assertEquals("HOT", policyOf("/plain"));
    assertEquals("HOT", policyOf("/"));
    assertEquals(0, namenode.getFileInfo("/plain").getStoragePolicy(), "unspecified, as HDFS reports it");
  }

  @Test
  void policiesAreInheritedFromTheNearestAncestorAndReportedAsHdfsDoes() throws IOException {
    fs.mkdirs(path("/sp/a/b"));
    file("/sp/a/b/file");
    file("/sp/a/own");
    fs.setStoragePolicy(path("/sp"), "cold"); // names are case-insensitive
    fs.setStoragePolicy(path("/sp/a/own"), "ALL_SSD");
    assertEquals("COLD", policyOf("/sp/a/b/file"));
    assertEquals("COLD", policyOf("/sp/a"));
    assertEquals("ALL_SSD", policyOf("/sp/a/own"));
    assertEquals(COLD, namenode.getFileInfo("/sp/a/b/file").getStoragePolicy(), "getFileInfo: the effective one");
    for (HdfsFileStatus child : namenode.getListing("/sp/a", new byte[0], false).getPartialListing()) {
      assertEquals(child.getLocalName().equals("own") ? ALL_SSD : COLD, child.getStoragePolicy(),
          "a listed child reports its own policy, else the directory's");
    }

    fs.setStoragePolicy(path("/sp/a"), "HOT");
    assertEquals("HOT", policyOf("/sp/a/b/file"), "the nearest ancestor wins");
    fs.unsetStoragePolicy(path("/sp/a"));
    assertEquals("COLD", policyOf("/sp/a/b/file"));
    fs.unsetStoragePolicy(path("/sp/a/own"));
    assertEquals("COLD", policyOf("/sp/a/own"));
    fs.unsetStoragePolicy(path("/sp"));
    assertEquals("HOT", policyOf("/sp/a/own"));
    assertEquals(0, namenode.getFileInfo("/sp/a/own").getStoragePolicy());
  }

  @Test
  void aFileCreatedWithAPolicyHasItsOwn() throws IOException {
    fs.mkdirs(path("/created"));
    fs.setStoragePolicy(path("/created"), "WARM");
    try (FSDataOutputStream out = fs.createFile(path("/created/cold")).storagePolicyName("COLD").build()) {
      out.write(1);
    }
    assertEquals("COLD", policyOf("/created/cold"));
    assertEquals(COLD, namenode.getFileInfo("/created/cold").getStoragePolicy());
    assertEquals("Cannot find a block policy with the name NOPE", remote(HadoopIllegalArgumentException.class,
        () -> fs.createFile(path("/created/bad")).storagePolicyName("NOPE").build().close()));
    assertFalse(fs.exists(path("/created/bad")));
  }

  @Test
  void policyErrorsAreHdfss() throws IOException {
    fs.mkdirs(path("/perr/dir"));
    file("/perr/file");
    assertEquals("Cannot find a block policy with the name NOPE",
        remote(HadoopIllegalArgumentException.class, () -> fs.setStoragePolicy(path("/perr/file"), "NOPE")));
    String lazy = remote(HadoopIllegalArgumentException.class,
        () -> fs.setStoragePolicy(path("/perr/file"), "LAZY_PERSIST"));
    assertTrue(lazy.startsWith("Policy BlockStoragePolicy{LAZY_PERSIST:15") && lazy.endsWith(
        "cannot be set after file creation."), lazy);
    fs.setStoragePolicy(path("/perr/dir"), "LAZY_PERSIST"); // a directory may have it: new files inherit it
    assertEquals("LAZY_PERSIST", policyOf("/perr/dir"));
    FileNotFoundException missing = assertThrows(FileNotFoundException.class,
        () -> fs.setStoragePolicy(path("/perr/missing"), "COLD"));
    assertTrue(missing.getMessage().contains("File/Directory does not exist: /perr/missing"), missing.getMessage());
    assertThrows(FileNotFoundException.class, () -> fs.getStoragePolicy(path("/perr/missing")));
    String satisfy = remote(org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException.class,
        () -> fs.satisfyStoragePolicy(path("/perr/file")));
    assertTrue(satisfy.startsWith("Cannot request to satisfy storage policy of /perr/file"), satisfy);
  }

  @Test
  void theStoragePoliciesToolShowsAndSetsPolicies() throws Exception {
    fs.mkdirs(path("/tool"));
    Output set = run(new StoragePolicyAdmin(conf()), "-setStoragePolicy", "-path", "/tool", "-policy", "WARM");
    assertEquals(0, set.exit, set.err);
    Output get = run(new StoragePolicyAdmin(conf()), "-getStoragePolicy", "-path", "/tool");
    assertEquals(0, get.exit, get.err);
    assertTrue(get.out.contains("The storage policy of /tool:\nBlockStoragePolicy{WARM:5"), get.out);
    Output list = run(new StoragePolicyAdmin(conf()), "-listPolicies");
    assertTrue(list.out.contains("BlockStoragePolicy{COLD:2"), list.out);
  }

  @Test
  void snapshotCallsAnswerOneClearLineInEveryTool() throws Exception {
    fs.mkdirs(path("/snapdir"));
    SnapshotException direct = assertThrows(SnapshotException.class,
        () -> fs.createSnapshot(path("/snapdir"), "s1"));
    // the client unwraps HDFS's snapshot exception; its message is the one line without the namenode's stack trace
    assertEquals("Snapshots are not supported by Canopy: createSnapshot /snapdir\n", direct.getMessage());

    Output create = run(new FsShell(conf()), "-createSnapshot", "/snapdir", "s1");
    assertEquals(1, create.exit);
    assertEquals("createSnapshot: Snapshots are not supported by Canopy: createSnapshot /snapdir\n", create.err);
    Output rename = run(new FsShell(conf()), "-renameSnapshot", "/snapdir", "s1", "s2");
    assertEquals("renameSnapshot: Snapshots are not supported by Canopy: renameSnapshot /snapdir\n", rename.err);
    Output delete = run(new FsShell(conf()), "-deleteSnapshot", "/snapdir", "s1");
    assertEquals("deleteSnapshot: Snapshots are not supported by Canopy: deleteSnapshot /snapdir\n", delete.err);
    Output allow = run(new DFSAdmin(conf()), "-allowSnapshot", "/snapdir");
    assertEquals(-1, allow.exit);
    assertEquals("allowSnapshot: Snapshots are not supported by Canopy: allowSnapshot /snapdir\n", allow.err);
    LsSnapshottableDir lsSnapshottableDir = new LsSnapshottableDir();
    lsSnapshottableDir.setConf(conf());
    Output list = run(lsSnapshottableDir);
    assertEquals(1, list.exit);
    assertEquals("lsSnapshottableDir: Snapshots are not supported by Canopy: getSnapshottableDirListing\n",
        list.err);
    assertEquals("Snapshots are not supported by Canopy: getSnapshotDiffReport /snapdir",
        remote(SnapshotException.class, () -> namenode.getSnapshotDiffReport("/snapdir", "s1", "s2")));
    assertEquals("Snapshots are not supported by Canopy: getSnapshotListing /snapdir",
        remote(SnapshotException.class, () -> namenode.getSnapshotListing("/snapdir")));
    assertEquals("Snapshots are not supported by Canopy: getSnapshotDiffReportListing /snapdir",
        remote(SnapshotException.class,
            () -> namenode.getSnapshotDiffReportListing("/snapdir", "s1", "s2", new byte[0], -1)));
    assertEquals("Snapshots are not supported by Canopy: disallowSnapshot /snapdir",
        remote(SnapshotException.class, () -> namenode.disallowSnapshot("/snapdir")));
  }

  @Test
  void symlinksAreRefusedUnlessEnabled() {
    // The stock client refuses before calling unless its JVM enabled symlinks: the raw call reaches the namenode.
    assertEquals("Symlinks not supported", remote(UnsupportedOperationException.class,
        () -> namenode.createSymlink("/target", "/link", FsPermission.getDirDefault(), false)));
  }

  @Test
  void hdfssMarkerHidingAFileFromTheSuperuserIsRefusedRatherThanIgnored() throws IOException {
    file("/unreadable");
    String refused = remote(org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException.class,
        () -> fs.setXAttr(path("/unreadable"), "security.hdfs.unreadable.by.superuser", null));
    assertEquals("The xattr 'security.hdfs.unreadable.by.superuser' is not supported by Canopy: /unreadable",
        refused);
    assertEquals(0, fs.getXAttrs(path("/unreadable")).size());
  }

  @Test
  void aCallCanopyDoesNotServeNamesItselfInOneLine() throws Exception {
    Output pools = run(new org.apache.hadoop.hdfs.tools.CacheAdmin(conf()), "-listPools");
    // the tool prefixes the class the client could not turn back into an IOException
    assertEquals("RemoteException: ClientProtocol.listCachePools is not supported by Canopy\n", pools.err);
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
    return conf;
  }

  private record Output(int exit, String out, String err) {
  }

  /** Runs a Hadoop command-line tool as the {@code hdfs} script would, capturing what it prints. */
  private static Output run(Tool tool, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int exit;
    try (PrintStream capturedOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream capturedErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(capturedOut);
      System.setErr(capturedErr);
      exit = ToolRunner.run(tool.getConf(), tool, args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    return new Output(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        .lines().filter(line -> !line.contains(" WARN ") && !line.contains(" INFO "))
        .collect(Collectors.joining("\n", "", "\n")).replaceFirst("^\n$", ""));
  }

  private interface IoCall {
    void run() throws Exception;
  }
}
