package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.UserClients.assertDenied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNodeConfig;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HDFS's permission rules on the calls added next to the permission work (append, truncate, concat, symlinks,
 * isFileClosed, extended attributes, storage policies), through the stock client acting as non-superusers: for each
 * call one refusal with HDFS's message and one success for a user the rule allows, and, where HDFS orders a path
 * error before the permission check, that order. Then one focused case for each gap the permission oracle
 * ({@code oracle/PermissionOracleTest}) found against Apache HDFS.
 */
@Timeout(180)
class PermissionsNewCallsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setInt("dfs.replication", 1);
    conf.setBoolean(NameNodeConfig.SYMLINKS_ENABLED, true);
  }).dataNodes(1).build(); // one datanode: append, truncate and concat need data
  static DistributedFileSystem superuser;
  static DistributedFileSystem alice;
  static DistributedFileSystem bob;
  static DistributedFileSystem admin;

  @BeforeAll
  static void clients() throws IOException {
    superuser = CLUSTER.fileSystem();
    alice = CLUSTER.users().as("alice", "staff");
    bob = CLUSTER.users().as("bob", "bob");
    admin = CLUSTER.users().as("admin", "supergroup");
  }

  /** A directory made by the superuser, then given {@code owner}, {@code group} and {@code mode}. */
  private static org.apache.hadoop.fs.Path dir(String path, String owner, String group, int mode) throws IOException {
    org.apache.hadoop.fs.Path dir = path(path);
    assertTrue(superuser.mkdirs(dir));
    superuser.setOwner(dir, owner, group);
    superuser.setPermission(dir, new FsPermission((short) mode));
    return dir;
  }

  /** A file {@code fs}'s user writes with {@code content} (the client's umask makes it -rw-r--r--). */
  private static org.apache.hadoop.fs.Path file(DistributedFileSystem fs, String path, String content)
      throws IOException {
    org.apache.hadoop.fs.Path file = path(path);
    try (FSDataOutputStream out = fs.create(file, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    return file;
  }

  private static String denied(String user, String access, String inode, String attributes) {
    return "Permission denied: user=" + user + ", access=" + access + ", inode=\"" + inode + "\":" + attributes;
  }

  @Test
  void appendNeedsWriteOnTheFileAfterTheDirectoryError() throws IOException {
    dir("/append", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path f = file(alice, "/append/f", "ab");
    assertDenied(denied("bob", "WRITE", "/append/f", "alice:staff:-rw-r--r--"), () -> bob.append(f));
    // HDFS's order: a directory is refused as one before any access check, a missing file only after it
    RemoteException isDirectory = assertThrows(RemoteException.class, () -> bob.append(path("/append")));
    assertEquals(FileAlreadyExistsException.class.getName(), isDirectory.getClassName());
    assertThrows(FileNotFoundException.class, () -> bob.append(path("/append/missing")));
    dir("/append/private", "alice", "staff", 0700);
    assertDenied(denied("bob", "EXECUTE", "/append/private", "alice:staff:drwx------"),
        () -> bob.append(path("/append/private/missing")));

    try (FSDataOutputStream out = alice.append(f)) {
      out.write('c');
    }
    assertEquals(3, superuser.getFileStatus(f).getLen());
  }

  @Test
  void truncateNeedsWriteOnTheFile() throws IOException {
    dir("/truncate", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path f = file(alice, "/truncate/f", "0123456789");
    assertDenied(denied("bob", "WRITE", "/truncate/f", "alice:staff:-rw-r--r--"), () -> bob.truncate(f, 0));
    assertEquals(10, superuser.getFileStatus(f).getLen());
    assertTrue(alice.truncate(f, 0), "to zero: on a block boundary, done at once");
    assertEquals(0, superuser.getFileStatus(f).getLen());
  }

  @Test
  void concatNeedsWriteOnTheTargetReadOnTheSourcesAndWriteOnTheirDirectory() throws IOException {
    org.apache.hadoop.fs.Path dir = dir("/concat", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path target = file(alice, "/concat/t", "t");
    org.apache.hadoop.fs.Path source = file(alice, "/concat/s", "s");
    org.apache.hadoop.fs.Path[] sources = {source};
    assertDenied(denied("bob", "WRITE", "/concat/t", "alice:staff:-rw-r--r--"), () -> bob.concat(target, sources));
    alice.setPermission(target, new FsPermission((short) 0666));
    alice.setPermission(source, new FsPermission((short) 0600));
    assertDenied(denied("bob", "READ", "/concat/s", "alice:staff:-rw-------"), () -> bob.concat(target, sources));
    alice.setPermission(source, new FsPermission((short) 0644));
    // the source is deleted: write on its directory
    assertDenied(denied("bob", "WRITE", "/concat", "alice:staff:drwxr-xr-x"), () -> bob.concat(target, sources));
    // and in a sticky directory the caller must own it or the source
    alice.setPermission(dir, new FsPermission((short) 01777));
    assertDenied("Permission denied by sticky bit: user=bob, path=\"/concat/s\":alice:staff:-rw-r--r--, "
        + "parent=\"/concat\":alice:staff:drwxrwxrwt", () -> bob.concat(target, sources));
    assertTrue(superuser.exists(source));

    alice.concat(target, sources);
    assertEquals(2, superuser.getFileStatus(target).getLen());
    assertFalse(superuser.exists(source));
  }

  @Test
  void createSymlinkNeedsWriteOnTheDeepestExistingAncestorAndTheLinkIsTheCallers() throws IOException {
    dir("/links", "alice", "wheel", 0755);
    assertDenied(denied("bob", "WRITE", "/links", "alice:wheel:drwxr-xr-x"),
        () -> bob.getClient().createSymlink("/anywhere", "/links/l", false));
    assertDenied(denied("bob", "WRITE", "/links", "alice:wheel:drwxr-xr-x"),
        () -> bob.getClient().createSymlink("/anywhere", "/links/a/b/l", true));
    dir("/links/private", "alice", "staff", 0700);
    assertDenied(denied("bob", "EXECUTE", "/links/private", "alice:staff:drwx------"),
        () -> bob.getClient().createSymlink("/anywhere", "/links/private/l", false));

    alice.getClient().createSymlink("/target/not/checked", "/links/l", false);
    HdfsFileStatus link = superuser.getClient().getFileLinkInfo("/links/l");
    assertTrue(link.isSymlink());
    assertEquals("alice", link.getOwner(), "the caller owns the link");
    assertEquals("wheel", link.getGroup(), "the parent's group, not one of the caller's");
    // HDFS's order: an existing name is refused before the access check
    IOException exists = assertThrows(IOException.class,
        () -> bob.getClient().createSymlink("/anywhere", "/links/l", false));
    assertFalse(exists instanceof AccessControlException, exists.toString());
    assertTrue(exists.getMessage().contains("failed to create link /links/l"), exists.getMessage());
  }

  @Test
  void getLinkTargetAndIsFileClosedNeedExecuteOnTheAncestors() throws IOException {
    dir("/closed", "alice", "staff", 0700);
    file(alice, "/closed/f", "x");
    alice.getClient().createSymlink("/closed/f", "/closed/l", false);
    String traverse = denied("bob", "EXECUTE", "/closed", "alice:staff:drwx------");
    assertDenied(traverse, () -> bob.isFileClosed(path("/closed/f")));
    assertDenied(traverse, () -> bob.getClient().getLinkTarget("/closed/l"));

    assertTrue(alice.isFileClosed(path("/closed/f")));
    assertEquals("/closed/f", alice.getClient().getLinkTarget("/closed/l"));
    superuser.setPermission(path("/closed"), new FsPermission((short) 0711));
    assertTrue(bob.isFileClosed(path("/closed/f")), "execute on the ancestors is all it needs");
    assertEquals("/closed/f", bob.getClient().getLinkTarget("/closed/l"));
  }

  @Test
  void userAttributesNeedWriteToChangeAndReadToSee() throws IOException {
    dir("/xattr", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path f = file(alice, "/xattr/f", "");
    String write = denied("bob", "WRITE", "/xattr/f", "alice:staff:-rw-r--r--");
    assertDenied(write, () -> bob.setXAttr(f, "user.a", bytes("b")));
    alice.setXAttr(f, "user.a", bytes("1"));
    assertDenied(write, () -> bob.removeXAttr(f, "user.a"));
    assertEquals(Map.of("user.a", "1"), text(bob.getXAttrs(f)), "-rw-r--r--: others may read");
    assertEquals(List.of("user.a"), bob.listXAttrs(f));

    alice.setPermission(f, new FsPermission((short) 0600));
    String read = denied("bob", "READ", "/xattr/f", "alice:staff:-rw-------");
    assertDenied(read, () -> bob.getXAttrs(f));
    assertDenied(read, () -> bob.getXAttr(f, "user.a"));
    assertDenied(read, () -> bob.listXAttrs(f));
    alice.removeXAttr(f, "user.a");
    assertEquals(Map.of(), text(alice.getXAttrs(f)));
  }

  @Test
  void onAStickyDirectoryOnlyTheOwnerChangesUserAttributes() throws IOException {
    org.apache.hadoop.fs.Path sticky = dir("/xattr-sticky", "alice", "staff", 01777);
    assertDenied("Permission denied. user=bob is not the owner of inode=/xattr-sticky",
        () -> bob.setXAttr(sticky, "user.a", bytes("b")));
    alice.setXAttr(sticky, "user.a", bytes("a"));
    assertDenied("Permission denied. user=bob is not the owner of inode=/xattr-sticky",
        () -> bob.removeXAttr(sticky, "user.a"));
    assertEquals(Map.of("user.a", "a"), text(bob.getXAttrs(sticky)));
  }

  @Test
  void trustedAttributesAreTheSuperusersIncludingTheSupergroups() throws IOException {
    dir("/trusted", "alice", "staff", 0777);
    org.apache.hadoop.fs.Path f = file(alice, "/trusted/f", "");
    alice.setPermission(f, new FsPermission((short) 0666));
    alice.setXAttr(f, "user.u", bytes("u"));
    admin.setXAttr(f, "trusted.t", bytes("t")); // a member of the superuser group is the superuser
    assertDenied("User doesn't have permission for xattr: trusted.x", () -> alice.setXAttr(f, "trusted.x",
        bytes("x")));
    assertDenied("User doesn't have permission for xattr: trusted.t", () -> alice.removeXAttr(f, "trusted.t"));
    assertDenied("User doesn't have permission for xattr: trusted.t", () -> alice.getXAttr(f, "trusted.t"));
    assertEquals(Map.of("user.u", "u"), text(alice.getXAttrs(f)), "the owner does not see trusted attributes");
    assertEquals(List.of("user.u"), alice.listXAttrs(f));

    assertEquals(Map.of("user.u", "u", "trusted.t", "t"), text(superuser.getXAttrs(f)));
    assertEquals(List.of("trusted.t", "user.u"), admin.listXAttrs(f).stream().sorted().toList());
    admin.removeXAttr(f, "trusted.t");
    assertEquals(Map.of("user.u", "u"), text(superuser.getXAttrs(f)));
  }

  @Test
  void storagePoliciesNeedWriteToSetAndReadToGet() throws IOException {
    dir("/policy", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path f = file(alice, "/policy/f", "");
    String write = denied("bob", "WRITE", "/policy/f", "alice:staff:-rw-r--r--");
    assertDenied(write, () -> bob.setStoragePolicy(f, "COLD"));
    alice.setStoragePolicy(f, "COLD");
    assertDenied(write, () -> bob.unsetStoragePolicy(f));
    assertEquals("COLD", bob.getStoragePolicy(f).getName(), "-rw-r--r--: others may read");

    alice.setPermission(f, new FsPermission((short) 0600));
    assertDenied(denied("bob", "READ", "/policy/f", "alice:staff:-rw-------"), () -> bob.getStoragePolicy(f));
    alice.unsetStoragePolicy(f);
    assertEquals("HOT", alice.getStoragePolicy(f).getName(), "back to the default");
  }

  // ---- gaps the permission oracle (oracle/PermissionOracleTest) found, one focused case each ----

  @Test
  void getQuotaUsageNeedsReadAndExecuteOnTheWholeSubtreeAsHdfs() throws IOException {
    org.apache.hadoop.fs.Path usage = dir("/usage", "alice", "staff", 0755);
    dir("/usage/private", "alice", "staff", 0700);
    file(alice, "/usage/private/secret", "12345");
    superuser.setQuota(usage, 100, HdfsConstants.QUOTA_DONT_SET);
    String subtree = denied("bob", "READ_EXECUTE", "/usage/private", "alice:staff:drwx------");
    // a directory with a quota answers from its stored row, but only to a caller who may list all below it
    assertDenied(subtree, () -> bob.getQuotaUsage(usage));
    assertDenied(subtree, () -> bob.getQuotaUsage(path("/usage/private")));
    // sizes and existence below a directory the caller cannot traverse stay hidden
    String traverse = denied("bob", "EXECUTE", "/usage/private", "alice:staff:drwx------");
    assertDenied(traverse, () -> bob.getQuotaUsage(path("/usage/private/secret")));
    assertDenied(traverse, () -> bob.getQuotaUsage(path("/usage/private/missing")));
    // and in a sticky directory, as for a recursive delete, the caller must own it or every child
    org.apache.hadoop.fs.Path sticky = dir("/usage/sticky", "admin", "supergroup", 01777);
    file(alice, "/usage/sticky/a", "");
    assertDenied("Permission denied by sticky bit: user=bob, path=\"/usage/sticky/a\":alice:supergroup:-rw-r--r--, "
        + "parent=\"/usage/sticky\":admin:supergroup:drwxrwxrwt", () -> bob.getQuotaUsage(sticky));

    assertEquals(5, alice.getQuotaUsage(usage).getFileAndDirectoryCount());
    assertEquals(100, alice.getQuotaUsage(usage).getQuota());
    assertEquals(2, alice.getQuotaUsage(sticky).getFileAndDirectoryCount());
    assertEquals(1, bob.getQuotaUsage(path("/usage/sticky/a")).getFileAndDirectoryCount());
  }

  @Test
  void erasureCodingPolicyAndEnclosingRootNeedReadOnThePath() throws IOException {
    dir("/readable", "alice", "staff", 0711);
    org.apache.hadoop.fs.Path f = file(alice, "/readable/f", "");
    alice.setPermission(f, new FsPermission((short) 0600));
    String read = denied("bob", "READ", "/readable/f", "alice:staff:-rw-------");
    assertDenied(read, () -> bob.getErasureCodingPolicy(f));
    assertDenied(read, () -> bob.getEnclosingRoot(f));
    dir("/readable/private", "alice", "staff", 0700);
    assertDenied(denied("bob", "EXECUTE", "/readable/private", "alice:staff:drwx------"),
        () -> bob.getEnclosingRoot(path("/readable/private/missing")));

    assertNull(alice.getErasureCodingPolicy(f), "replicated");
    assertEquals("/", alice.getEnclosingRoot(f).toUri().getPath());
    assertEquals("/", bob.getEnclosingRoot(path("/readable/missing")).toUri().getPath(), "no file needed");
    assertThrows(FileNotFoundException.class, () -> bob.getErasureCodingPolicy(path("/readable/missing")));
  }

  @Test
  void aDirectoryTheCallerCannotTraverseIsRefusedBeforeAFileBelowItIsNamed() throws IOException {
    org.apache.hadoop.fs.Path hidden = dir("/hidden", "alice", "staff", 0700);
    file(alice, "/hidden/f", "");
    org.apache.hadoop.fs.Path below = path("/hidden/f/below");
    String traverse = denied("bob", "EXECUTE", "/hidden", "alice:staff:drwx------");
    // "/hidden/f (is not a directory)" would tell bob that a file f exists in a directory he may not look into
    assertDenied(traverse, () -> bob.getFileStatus(below));
    assertDenied(traverse, () -> bob.mkdirs(below));
    assertDenied(traverse, () -> bob.create(below));
    assertDenied(traverse, () -> bob.delete(below, false));
    assertDenied(traverse, () -> bob.setPermission(below, new FsPermission((short) 0777)));

    superuser.setPermission(hidden, new FsPermission((short) 0711));
    assertDenied("/hidden/f (is not a directory)", () -> bob.getFileStatus(below));
    assertThrows(ParentNotDirectoryException.class, () -> bob.mkdirs(below));
  }

  @Test
  void renameChecksTheTraversalOfBothPathsBeforeAnyWriteAccess() throws IOException {
    dir("/rename-from", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path f = file(alice, "/rename-from/f", "");
    dir("/rename-to", "alice", "staff", 0700);
    // bob may not write /rename-from either, but HDFS resolves both paths first
    String traverse = denied("bob", "EXECUTE", "/rename-to", "alice:staff:drwx------");
    assertDenied(traverse, () -> bob.rename(f, path("/rename-to/f")));
    assertDenied(traverse, () -> bob.rename(f, path("/rename-to/f"), Options.Rename.NONE));
    assertDenied(denied("bob", "WRITE", "/rename-from", "alice:staff:drwxr-xr-x"),
        () -> bob.rename(f, path("/f")));
  }

  @Test
  void aWriterNamingItsFileByPathIsRefusedTheTraversalBeforeTheLease() throws IOException {
    org.apache.hadoop.fs.Path writing = dir("/writing", "alice", "staff", 0700);
    file(alice, "/writing/f", "");
    ClientProtocol namenode = bob.getClient().getNamenode();
    String client = bob.getClient().getClientName();
    long byPath = HdfsConstants.GRANDFATHER_INODE_ID; // as old clients call: no file id
    // the lease errors ("No lease on /writing/f (inode N)", "File does not exist") would tell what /writing holds
    String traverse = denied("bob", "EXECUTE", "/writing", "alice:staff:drwx------");
    assertDenied(traverse, () -> unwrapped(() -> namenode.addBlock("/writing/f", client, null, null, byPath, null,
        null)));
    assertDenied(traverse, () -> unwrapped(() -> namenode.complete("/writing/missing", client, null, byPath)));
    assertDenied(traverse, () -> unwrapped(() -> {
      namenode.fsync("/writing/f", byPath, client, 0);
      return null;
    }));

    superuser.setPermission(writing, new FsPermission((short) 0711));
    RemoteException notOpen = assertThrows(RemoteException.class,
        () -> namenode.addBlock("/writing/f", client, null, null, byPath, null, null));
    assertEquals(LeaseExpiredException.class.getName(), notOpen.getClassName(), "then the lease decides");
    RemoteException directory = assertThrows(RemoteException.class,
        () -> namenode.complete("/writing", client, null, byPath));
    assertEquals(LeaseExpiredException.class.getName(), directory.getClassName(), "HDFS's class for a directory");
    assertTrue(directory.getMessage().startsWith("INode is not a regular file: /writing"), directory.getMessage());
  }

  @Test
  void superuserRefusalsNameHdfsOperations() {
    String required = "Access denied for user bob. Superuser privilege is required for operation ";
    assertDenied(required + "getDatanodeStorageReport",
        () -> unwrapped(() -> bob.getClient().getNamenode().getDatanodeStorageReport(DatanodeReportType.LIVE)));
    assertDenied(required + "queryRollingUpgrade",
        () -> unwrapped(() -> bob.getClient().getNamenode().rollingUpgrade(RollingUpgradeAction.QUERY)));
    assertDenied(required + "datanodeReport", () -> unwrapped(() -> bob.getDataNodeStats()));
  }

  @Test
  void underAFileTheSuperuserGetsHdfsAnswersToo() throws IOException {
    dir("/under", "alice", "staff", 0755);
    file(alice, "/under/f", "");
    // HDFS's getFileInfo family answers the superuser "no such file"; other calls refuse the path
    assertNull(superuser.getClient().getLocatedFileInfo("/under/f/below", false));
    assertNull(superuser.getClient().getFileInfo("/under/f/below"));
    assertDenied("/under/f (is not a directory)",
        () -> unwrapped(() -> superuser.getClient().getBlockSize("/under/f/below")));
  }

  private interface Call {
    Object run() throws IOException;
  }

  /** Runs a raw namenode call, turning its RemoteException into the exception the server threw. */
  private static Object unwrapped(Call call) throws IOException {
    try {
      return call.run();
    } catch (RemoteException e) {
      throw e.unwrapRemoteException();
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> text(Map<String, byte[]> xattrs) {
    Map<String, String> result = new TreeMap<>();
    xattrs.forEach((name, value) -> result.put(name, new String(value, StandardCharsets.UTF_8)));
    return result;
  }
}
