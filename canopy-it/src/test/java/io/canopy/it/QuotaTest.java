package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.FSLimitException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Namespace and storage-space quotas as HDFS users meet them: set and cleared with {@code hdfs dfsadmin}, shown by
 * {@code hadoop fs -count -q}, enforced on create, mkdirs (implicit parents included), block allocation,
 * setReplication and moves into another quota directory with HDFS's exceptions and messages, and given back by
 * deletes, moves out and commits. After every test the stored usage equals a recount of the tables.
 */
@Timeout(300)
class QuotaTest {
  private static final long BLOCK = 1024 * 1024;

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setLong("dfs.blocksize", BLOCK);
    conf.setInt("dfs.replication", 1);
  }).dataNodes(1).build();
  static DistributedFileSystem fs;

  @BeforeAll
  static void client() throws IOException {
    fs = CLUSTER.fileSystem();
  }

  @AfterEach
  void storedUsageEqualsARecount() throws IOException {
    assertEquals(List.of(), NamespaceInvariants.violations(CLUSTER.store()));
  }

  /** Runs a Hadoop tool as a user types it; returns what it printed (both streams), asserting the exit code. */
  private static String run(Tool tool, int expectedExit, String... args) throws Exception {
    Configuration conf = new Configuration(CLUSTER.cluster().conf());
    conf.set("fs.defaultFS", CLUSTER.cluster().uri());
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
    assertEquals(expectedExit, exit, "exit code of " + String.join(" ", args) + "; output: " + output);
    return output;
  }

  private static String dfsadmin(int expectedExit, String... args) throws Exception {
    return run(new DFSAdmin(), expectedExit, args);
  }

  private static String shell(int expectedExit, String... args) throws Exception {
    return run(new FsShell(), expectedExit, args);
  }

  private static void touch(String file) throws IOException {
    fs.create(path(file), false).close();
  }

  private static void write(String file, long bytes, short replication) throws IOException {
    try (FSDataOutputStream out = fs.create(path(file), false, 4096, replication, BLOCK)) {
      out.write(TestFiles.randomBytes((int) bytes, bytes));
    }
  }

  /** The stored usage of a directory with a quota, checked against getContentSummary's fresh count. */
  private static QuotaUsage usage(String dir, long namespace, long storageSpace) throws IOException {
    QuotaUsage usage = fs.getQuotaUsage(path(dir));
    ContentSummary summary = fs.getContentSummary(path(dir));
    assertEquals(namespace, usage.getFileAndDirectoryCount(), "namespace used by " + dir);
    assertEquals(storageSpace, usage.getSpaceConsumed(), "storage space used by " + dir);
    assertEquals(summary.getFileCount() + summary.getDirectoryCount(), usage.getFileAndDirectoryCount(),
        "stored namespace usage of " + dir + " against a count");
    assertEquals(summary.getSpaceConsumed(), usage.getSpaceConsumed(), "stored storage usage of " + dir
        + " against a count");
    return usage;
  }

  /**
   * The message of an exception that came over RPC, without the namenode's stack trace (Hadoop's RPC server appends
   * it to every error, for HDFS as for Canopy).
   */
  private static String message(Throwable error) {
    return error.getMessage().split("\n", 2)[0];
  }

  private static String nsMessage(String dir, long quota, long count) {
    return "The NameSpace quota (directories and files) of directory " + dir + " is exceeded: quota=" + quota
        + " file count=" + count;
  }

  @Test
  void dfsAdminSetsAndClearsQuotasAndCountShowsThem() throws Exception {
    fs.mkdirs(path("/admin/q/sub"));
    touch("/admin/q/f1");
    write("/admin/q/sub/f2", 1000, (short) 1);

    dfsadmin(0, "-setQuota", "10", "/admin/q");
    QuotaUsage usage = usage("/admin/q", 4, 1000);
    assertEquals(10, usage.getQuota());
    assertEquals(-1, usage.getSpaceQuota());

    dfsadmin(0, "-setSpaceQuota", "1g", "/admin/q");
    usage = usage("/admin/q", 4, 1000);
    assertEquals(10, usage.getQuota(), "setting the space quota keeps the namespace quota");
    assertEquals(1L << 30, usage.getSpaceQuota());
    ContentSummary summary = fs.getContentSummary(path("/admin/q"));
    assertEquals(10, summary.getQuota());
    assertEquals(1L << 30, summary.getSpaceQuota());

    // hadoop fs -count -q: quota, remaining, space quota, remaining space, directories, files, bytes, path
    assertEquals(List.of("10", "6", String.valueOf(1L << 30), String.valueOf((1L << 30) - 1000), "2", "2", "1000",
        "/admin/q"), List.of(shell(0, "-count", "-q", "/admin/q").trim().split("\\s+")));
    // -u reads getQuotaUsage: quota, remaining, space quota, remaining space, path
    assertEquals(List.of("10", "6", String.valueOf(1L << 30), String.valueOf((1L << 30) - 1000), "/admin/q"),
        List.of(shell(0, "-count", "-q", "-u", "/admin/q").trim().split("\\s+")));

    dfsadmin(0, "-clrQuota", "/admin/q");
    usage = usage("/admin/q", 4, 1000);
    assertEquals(-1, usage.getQuota());
    assertEquals(1L << 30, usage.getSpaceQuota(), "clearing the namespace quota keeps the space quota");
    assertEquals(List.of("none", "inf", String.valueOf(1L << 30), String.valueOf((1L << 30) - 1000), "2", "2",
        "1000", "/admin/q"), List.of(shell(0, "-count", "-q", "/admin/q").trim().split("\\s+")));

    dfsadmin(0, "-clrSpaceQuota", "/admin/q");
    usage = usage("/admin/q", 4, 1000);
    assertEquals(-1, usage.getQuota());
    assertEquals(-1, usage.getSpaceQuota());
    assertEquals(List.of("none", "inf", "none", "inf", "2", "2", "1000", "/admin/q"),
        List.of(shell(0, "-count", "-q", "/admin/q").trim().split("\\s+")));
    long id = fs.getClient().getFileInfo("/admin/q").getFileId();
    assertEquals("0", StoreQueries.query(CLUSTER.store(), "SELECT count(*) FROM directory_quotas WHERE inode_id = " + id, 1)
        .rows().get(0).get(0), "a directory with both quotas cleared keeps no row");

    String refused = dfsadmin(-1, "-setSpaceQuota", "1000", "-storageType", "SSD", "/admin/q");
    assertTrue(refused.contains("Canopy does not support quotas by storage type"), refused);

    // the root: HDFS's permanent namespace quota, no space quota
    assertEquals(Long.MAX_VALUE, fs.getContentSummary(path("/")).getQuota());
    assertEquals(Long.MAX_VALUE, fs.getQuotaUsage(path("/")).getQuota());
    assertEquals(-1, fs.getQuotaUsage(path("/")).getSpaceQuota());
    assertEquals(-1, fs.getQuotaUsage(path("/admin/q/f1")).getQuota());
    assertEquals(1, fs.getQuotaUsage(path("/admin/q/f1")).getFileAndDirectoryCount());
  }

  @Test
  void onlyTheSuperuserSetsQuotas() throws Exception {
    fs.mkdirs(path("/super"));
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    AccessControlException denied = alice.doAs((PrivilegedExceptionAction<AccessControlException>) () -> {
      try (FileSystem aliceFs = FileSystem.newInstance(java.net.URI.create(CLUSTER.cluster().uri()),
          CLUSTER.cluster().conf())) {
        return assertThrows(AccessControlException.class,
            () -> ((DistributedFileSystem) aliceFs).setQuota(path("/super"), 5, HdfsConstants.QUOTA_DONT_SET));
      }
    });
    assertEquals("Access denied for user alice. Superuser privilege is required for operation setQuota",
        message(denied));
    assertEquals(-1, fs.getQuotaUsage(path("/super")).getQuota());
  }

  @Test
  void badTargetsAndValuesGetHdfsErrors() throws Exception {
    fs.mkdirs(path("/bad"));
    touch("/bad/file");
    FileNotFoundException missing = assertThrows(FileNotFoundException.class,
        () -> fs.setQuota(path("/bad/missing"), 5, HdfsConstants.QUOTA_DONT_SET));
    assertEquals("Directory does not exist: /bad/missing", message(missing));
    RemoteException notDirectory = assertThrows(RemoteException.class,
        () -> fs.setQuota(path("/bad/file"), 5, HdfsConstants.QUOTA_DONT_SET));
    assertEquals(PathIsNotDirectoryException.class.getName(), notDirectory.getClassName());
    assertTrue(notDirectory.getMessage().contains("/bad/file"), notDirectory.getMessage());
    // the client checks values itself; the namenode checks them again for other clients
    ClientProtocol namenode = fs.getClient().getNamenode();
    RemoteException illegal = assertThrows(RemoteException.class,
        () -> namenode.setQuota("/bad", -5, HdfsConstants.QUOTA_DONT_SET, null));
    assertEquals(IllegalArgumentException.class.getName(), illegal.getClassName());
    assertTrue(illegal.getMessage().contains("Illegal value for nsQuota or ssQuota : -5 and "
        + HdfsConstants.QUOTA_DONT_SET), illegal.getMessage());
    RemoteException byType = assertThrows(RemoteException.class,
        () -> namenode.setQuota("/bad", HdfsConstants.QUOTA_DONT_SET, 1000, StorageType.SSD));
    assertTrue(byType.getMessage().contains("does not support quotas by storage type"), byType.getMessage());
    FileNotFoundException noUsage = assertThrows(FileNotFoundException.class,
        () -> fs.getQuotaUsage(path("/bad/missing")));
    assertEquals("File/Directory does not exist: /bad/missing", message(noUsage));
    // clearing what is not set changes nothing
    fs.setQuota(path("/bad"), HdfsConstants.QUOTA_RESET, HdfsConstants.QUOTA_RESET);
    assertEquals(-1, fs.getQuotaUsage(path("/bad")).getQuota());
  }

  @Test
  void aStoragePolicyOnAQuotaDirectoryKeepsItsQuota() throws Exception {
    fs.mkdirs(path("/policy-quota"));
    fs.setQuota(path("/policy-quota"), 2, HdfsConstants.QUOTA_DONT_SET);
    fs.setStoragePolicy(path("/policy-quota"), "COLD"); // found by the permission oracle: it dropped the quota
    assertTrue(fs.mkdirs(path("/policy-quota/a")));
    NSQuotaExceededException refused = assertThrows(NSQuotaExceededException.class,
        () -> fs.mkdirs(path("/policy-quota/b")));
    assertEquals(nsMessage("/policy-quota", 2, 3), message(refused));
    fs.setQuota(path("/policy-quota"), 3, HdfsConstants.QUOTA_DONT_SET);
    assertEquals(3, usage("/policy-quota", 2, 0).getQuota());
    fs.unsetStoragePolicy(path("/policy-quota"));
    assertEquals(3, usage("/policy-quota", 2, 0).getQuota());
  }

  @Test
  void namespaceQuotaStopsCreatesAndMkdirsWithHdfsMessages() throws Exception {
    fs.mkdirs(path("/ns"));
    fs.setQuota(path("/ns"), 3, HdfsConstants.QUOTA_DONT_SET);
    usage("/ns", 1, 0); // the directory counts itself
    touch("/ns/f1");
    assertTrue(fs.mkdirs(path("/ns/d")));
    usage("/ns", 3, 0);

    NSQuotaExceededException onCreate = assertThrows(NSQuotaExceededException.class, () -> touch("/ns/f2"));
    assertEquals(nsMessage("/ns", 3, 4), message(onCreate));
    NSQuotaExceededException onMkdir = assertThrows(NSQuotaExceededException.class,
        () -> fs.mkdirs(path("/ns/d2")));
    assertEquals(nsMessage("/ns", 3, 4), message(onMkdir));
    assertThrows(NSQuotaExceededException.class, () -> fs.mkdirs(path("/ns/d/below")),
        "the quota of an ancestor applies deep below it");
    assertFalse(fs.exists(path("/ns/f2")));
    usage("/ns", 3, 0);

    // implicitly created parents count one by one, as HDFS checks each mkdir, and those made before the one refused
    // stay, as in HDFS
    fs.setQuota(path("/ns"), 5, HdfsConstants.QUOTA_DONT_SET);
    NSQuotaExceededException parents = assertThrows(NSQuotaExceededException.class,
        () -> fs.mkdirs(path("/ns/a/b/c")));
    assertEquals(nsMessage("/ns", 5, 6), message(parents));
    assertTrue(fs.getFileStatus(path("/ns/a/b")).isDirectory(), "the parents made before the refusal stay");
    assertFalse(fs.exists(path("/ns/a/b/c")));
    usage("/ns", 5, 0);
    assertTrue(fs.delete(path("/ns/a"), true));
    NSQuotaExceededException createParents = assertThrows(NSQuotaExceededException.class,
        () -> touch("/ns/p/q/file"));
    assertEquals(nsMessage("/ns", 5, 6), message(createParents));
    assertTrue(fs.getFileStatus(path("/ns/p/q")).isDirectory(), "create's parents stay too");
    assertFalse(fs.exists(path("/ns/p/q/file")));
    usage("/ns", 5, 0);
    assertTrue(fs.delete(path("/ns/p"), true));
    touch("/ns/p-file");
    usage("/ns", 4, 0);

    // nested quotas: the deepest exceeded one is reported
    fs.setQuota(path("/ns/d"), 1, HdfsConstants.QUOTA_DONT_SET);
    assertEquals(nsMessage("/ns/d", 1, 2), message(assertThrows(NSQuotaExceededException.class,
        () -> touch("/ns/d/x"))));
    fs.setQuota(path("/ns/d"), 10, HdfsConstants.QUOTA_DONT_SET);
    touch("/ns/d/x");
    assertEquals(nsMessage("/ns", 5, 6), message(assertThrows(NSQuotaExceededException.class,
        () -> touch("/ns/d/y"))), "then the outer one");
    usage("/ns/d", 2, 0);
    usage("/ns", 5, 0);

    // overwriting a file replaces it: no growth
    fs.create(path("/ns/f1"), true).close();
    usage("/ns", 5, 0);
    // deletes give usage back
    assertTrue(fs.delete(path("/ns/d"), true));
    assertTrue(fs.delete(path("/ns/f1"), false));
    usage("/ns", 2, 0); // and the deleted directory's quota row went with it (checked after each test)
  }

  /** A file-system limit that stops mkdirs -p keeps the parents made before it, as a quota does (HDFS's order). */
  @Test
  void aLimitThatStopsMkdirsKeepsTheParentsMadeBeforeIt() throws Exception {
    String tooLong = "x".repeat(256);
    RemoteException refused = assertThrows(RemoteException.class,
        () -> fs.mkdirs(path("/limits/made/" + tooLong + "/below")));
    assertEquals(FSLimitException.PathComponentTooLongException.class.getName(), refused.getClassName());
    assertTrue(message(refused).contains("The maximum path component name limit of " + tooLong
        + " in directory /limits/made is exceeded: limit=255 length=256"), message(refused));
    assertTrue(fs.getFileStatus(path("/limits/made")).isDirectory());
    assertEquals(0, fs.listStatus(path("/limits/made")).length);
    assertTrue(fs.delete(path("/limits"), true));
  }

  @Test
  void storageSpaceQuotaChargesWholeBlocksUntilTheyAreCommitted() throws Exception {
    fs.mkdirs(path("/ds"));
    fs.setQuota(path("/ds"), HdfsConstants.QUOTA_DONT_SET, 2 * BLOCK);
    write("/ds/big", BLOCK + BLOCK / 2, (short) 1);
    usage("/ds", 2, BLOCK + BLOCK / 2); // the last block charged its length once committed

    DSQuotaExceededException full = assertThrows(DSQuotaExceededException.class,
        () -> write("/ds/small", 1, (short) 1));
    assertEquals("The DiskSpace quota of /ds is exceeded: quota = 2097152 B = 2 MB but diskspace consumed = "
        + "2621440 B = 2.50 MB", message(full));
    fs.delete(path("/ds/small"), false); // the file was created before its first block was refused
    usage("/ds", 2, BLOCK + BLOCK / 2);

    DSQuotaExceededException replication = assertThrows(DSQuotaExceededException.class,
        () -> fs.setReplication(path("/ds/big"), (short) 2));
    assertTrue(replication.getMessage().contains("diskspace consumed = " + 3 * BLOCK + " B"),
        replication.getMessage());
    fs.setQuota(path("/ds"), HdfsConstants.QUOTA_DONT_SET, 4 * BLOCK);
    assertTrue(fs.setReplication(path("/ds/big"), (short) 2));
    usage("/ds", 2, 3 * BLOCK);
    assertTrue(fs.setReplication(path("/ds/big"), (short) 1));
    usage("/ds", 2, BLOCK + BLOCK / 2);

    // allocating a block charges a whole preferred block per replica; abandoning it gives it back
    ClientProtocol namenode = fs.getClient().getNamenode();
    String client = fs.getClient().getClientName();
    HdfsFileStatus open = namenode.create("/ds/open", FsPermission.getFileDefault(), client,
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), false, (short) 1, BLOCK,
        CryptoProtocolVersion.supported(), null, null);
    LocatedBlock block = namenode.addBlock("/ds/open", client, null, null, open.getFileId(), null, null);
    usage("/ds", 3, 2 * BLOCK + BLOCK / 2);
    namenode.abandonBlock(block.getBlock(), open.getFileId(), "/ds/open", client);
    usage("/ds", 3, BLOCK + BLOCK / 2);
    namenode.addBlock("/ds/open", client, null, null, open.getFileId(), null, null);
    usage("/ds", 3, 2 * BLOCK + BLOCK / 2);
    assertTrue(fs.delete(path("/ds/open"), false), "deleting an open file gives its allocated block back");
    usage("/ds", 2, BLOCK + BLOCK / 2);
    assertTrue(fs.delete(path("/ds/big"), false));
    usage("/ds", 1, 0);
  }

  /**
   * HDFS's charges of append (the rest of a partial last block reopened, checked even with NEW_BLOCK), truncate (the
   * cut block counts as a whole block until its recovery commits) and concat (one inode less per source, the sources
   * taking the target's replication); a refused call changes nothing.
   */
  @Test
  void appendTruncateAndConcatAreChargedAsHdfsChargesThem() throws Exception {
    fs.mkdirs(path("/adt"));
    fs.setQuota(path("/adt"), HdfsConstants.QUOTA_DONT_SET, 4 * BLOCK);
    write("/adt/a", BLOCK / 2, (short) 1);
    usage("/adt", 2, BLOCK / 2);

    try (FSDataOutputStream out = fs.append(path("/adt/a"))) {
      usage("/adt", 2, BLOCK); // the reopened block counts as a whole block while it is written
      out.write(TestFiles.randomBytes(100, 1));
    }
    usage("/adt", 2, BLOCK / 2 + 100); // complete gave the unused part back

    long rest = BLOCK / 2 - 100;
    fs.setQuota(path("/adt"), HdfsConstants.QUOTA_DONT_SET, BLOCK / 2 + 100 + rest - 1);
    DSQuotaExceededException append = assertThrows(DSQuotaExceededException.class,
        () -> fs.append(path("/adt/a")).close());
    assertTrue(message(append).startsWith("The DiskSpace quota of /adt is exceeded: quota = " + (BLOCK - 1)
        + " B"), message(append));
    assertThrows(DSQuotaExceededException.class, () -> fs.append(path("/adt/a"),
        EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK), 4096, null).close(),
        "HDFS checks the rest of the last block even when the append starts a new block");
    assertTrue(fs.isFileClosed(path("/adt/a")), "a refused append leaves the file closed");
    assertEquals(BLOCK / 2 + 100, fs.getFileStatus(path("/adt/a")).getLen());
    usage("/adt", 2, BLOCK / 2 + 100);

    // truncating inside a block charges the block as a whole one until the datanodes have cut it
    // (the stock client's truncate and concat do not unwrap quota exceptions, for HDFS either)
    RemoteException truncate = assertThrows(RemoteException.class, () -> fs.truncate(path("/adt/a"), 50));
    assertEquals(DSQuotaExceededException.class.getName(), truncate.getClassName());
    assertTrue(message(truncate).startsWith("The DiskSpace quota of /adt is exceeded"), message(truncate));
    assertEquals(BLOCK / 2 + 100, fs.getFileStatus(path("/adt/a")).getLen(), "a refused truncate cuts nothing");
    fs.setQuota(path("/adt"), HdfsConstants.QUOTA_DONT_SET, 8 * BLOCK);
    assertFalse(fs.truncate(path("/adt/a"), 50));
    awaitClosed("/adt/a");
    usage("/adt", 2, 50);
    assertTrue(fs.truncate(path("/adt/a"), 0), "truncating to a block boundary is done at once");
    usage("/adt", 2, 0);

    // concat: each source is one inode less, and is charged at the target's replication
    write("/adt/t", BLOCK / 4, (short) 2);
    write("/adt/s1", 1000, (short) 1);
    write("/adt/s2", 3000, (short) 3);
    usage("/adt", 5, 2 * (BLOCK / 4) + 1000 + 3 * 3000);
    fs.setQuota(path("/adt"), HdfsConstants.QUOTA_DONT_SET, 2 * (BLOCK / 4) + 1000 + 3 * 3000 + 999);
    org.apache.hadoop.fs.Path[] onlyFirst = {path("/adt/s1")};
    RemoteException concat = assertThrows(RemoteException.class, () -> fs.concat(path("/adt/t"), onlyFirst),
        "s1 doubles its replication: 1000 more bytes");
    assertEquals(DSQuotaExceededException.class.getName(), concat.getClassName());
    assertTrue(message(concat).startsWith("The DiskSpace quota of /adt is exceeded"), message(concat));
    assertTrue(fs.exists(path("/adt/s1")), "a refused concat moves nothing");
    usage("/adt", 5, 2 * (BLOCK / 4) + 1000 + 3 * 3000);
    fs.concat(path("/adt/t"), new org.apache.hadoop.fs.Path[] {path("/adt/s2"), path("/adt/s1")});
    usage("/adt", 3, 2 * (BLOCK / 4 + 3000 + 1000)); // s2 gave back a replica, s1 took one more
    assertEquals(BLOCK / 4 + 4000, fs.getFileStatus(path("/adt/t")).getLen());
    assertTrue(fs.delete(path("/adt"), true));
  }

  private static void awaitClosed(String file) throws Exception {
    Await.until(file + " is closed", java.time.Duration.ofSeconds(60), () -> fs.isFileClosed(path(file)));
  }

  @Test
  void movesIntoAnotherQuotaDirectoryAreChargedThere() throws Exception {
    fs.mkdirs(path("/mv/src/dir"));
    fs.mkdirs(path("/mv/dst"));
    for (int i = 0; i < 3; i++) {
      write("/mv/src/dir/f" + i, 100, (short) 1);
    }
    fs.setQuota(path("/mv/dst"), 3, HdfsConstants.QUOTA_DONT_SET);

    NSQuotaExceededException rename2 = assertThrows(NSQuotaExceededException.class,
        () -> fs.rename(path("/mv/src/dir"), path("/mv/dst/dir"), Options.Rename.NONE));
    assertEquals(nsMessage("/mv/dst", 3, 5), message(rename2));
    NSQuotaExceededException rename = assertThrows(NSQuotaExceededException.class,
        () -> fs.rename(path("/mv/src/dir"), path("/mv/dst")), "the old rename throws too, as in HDFS");
    assertEquals(nsMessage("/mv/dst", 3, 5), message(rename));
    assertTrue(fs.exists(path("/mv/src/dir/f2")));

    fs.setQuota(path("/mv/dst"), 5, 1000);
    assertTrue(fs.rename(path("/mv/src/dir"), path("/mv/dst")));
    usage("/mv/dst", 5, 300);
    // within the same quota directory a move costs nothing, even at the limit
    assertTrue(fs.rename(path("/mv/dst/dir/f0"), path("/mv/dst/f0")));
    fs.rename(path("/mv/dst/f0"), path("/mv/dst/dir/g0"), Options.Rename.NONE);
    usage("/mv/dst", 5, 300);

    // a quota directory moved into another: both keep exact usage
    fs.mkdirs(path("/mv/inner"));
    fs.setQuota(path("/mv/inner"), 10, HdfsConstants.QUOTA_DONT_SET);
    write("/mv/inner/x", 50, (short) 1);
    fs.setQuota(path("/mv/dst"), 8, 1000);
    assertTrue(fs.rename(path("/mv/inner"), path("/mv/dst/dir")));
    usage("/mv/dst", 7, 350);
    usage("/mv/dst/dir/inner", 2, 50);

    // rename2 with overwrite gives the replaced file's usage back first
    write("/mv/src/replacement", 20, (short) 1);
    fs.rename(path("/mv/src/replacement"), path("/mv/dst/dir/inner/x"), Options.Rename.OVERWRITE);
    usage("/mv/dst/dir/inner", 2, 20);
    usage("/mv/dst", 7, 320);

    // HDFS checks what comes in less what it replaces: a replacement no larger passes a quota already exceeded
    fs.setQuota(path("/mv/dst/dir/inner"), 1, HdfsConstants.QUOTA_DONT_SET);
    write("/mv/src/same", 20, (short) 1);
    fs.rename(path("/mv/src/same"), path("/mv/dst/dir/inner/x"), Options.Rename.OVERWRITE);
    usage("/mv/dst/dir/inner", 2, 20);
    write("/mv/src/extra", 5, (short) 1);
    assertThrows(NSQuotaExceededException.class,
        () -> fs.rename(path("/mv/src/extra"), path("/mv/dst/dir/inner/y"), Options.Rename.NONE));
    assertTrue(fs.delete(path("/mv/src/extra"), false));
    fs.setQuota(path("/mv/dst/dir/inner"), 10, HdfsConstants.QUOTA_DONT_SET);

    // moving out gives everything back
    assertTrue(fs.rename(path("/mv/dst/dir"), path("/mv/src/back")));
    usage("/mv/dst", 1, 0);
    usage("/mv/src/back/inner", 2, 20);
    assertNotEquals(0L, fs.getContentSummary(path("/mv/src")).getSpaceConsumed());
  }
}
