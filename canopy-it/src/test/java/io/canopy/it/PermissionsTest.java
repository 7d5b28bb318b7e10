package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.UserClients.assertDenied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.namenode.NameNode;
import io.canopy.namenode.tx.OperationMetrics;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HDFS permissions (its permissions guide, FSPermissionChecker's rules and messages), enforced by default, through
 * the stock client acting as non-superusers: execute on ancestors, write on parents and ancestors, read to open,
 * read and execute to list, all access to a deleted subtree, the sticky bit, ownership for chmod and chown, the
 * parent's group, the client's umask, and the superuser (the namenode's user or the supergroup) passing everything.
 */
@Timeout(180)
class PermissionsTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt("dfs.replication", 1)).build(); // namespace calls only: no datanode needed
  static DistributedFileSystem superuser;
  static String superuserName;
  static DistributedFileSystem alice;
  static DistributedFileSystem bob;
  static DistributedFileSystem carol;
  static DistributedFileSystem admin;

  @BeforeAll
  static void clients() throws IOException {
    superuser = CLUSTER.fileSystem();
    superuserName = UserGroupInformation.getCurrentUser().getShortUserName();
    alice = CLUSTER.users().as("alice", "staff", "alicegrp");
    bob = CLUSTER.users().as("bob", "bob");
    carol = CLUSTER.users().as("carol", "staff");
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

  private static org.apache.hadoop.fs.Path touch(DistributedFileSystem fs, String path) throws IOException {
    org.apache.hadoop.fs.Path file = path(path);
    fs.create(file, false).close();
    return file;
  }

  @Test
  void everyExistingAncestorNeedsExecute() throws IOException {
    dir("/traverse", "alice", "staff", 0700);
    touch(alice, "/traverse/f");
    assertEquals("alice", alice.getFileStatus(path("/traverse/f")).getOwner());
    assertEquals(0700, bob.getFileStatus(path("/traverse")).getPermission().toShort(), "the directory itself: ok");
    String denied = "Permission denied: user=bob, access=EXECUTE, inode=\"/traverse\":alice:staff:drwx------";
    assertDenied(denied, () -> bob.getFileStatus(path("/traverse/f")));
    assertDenied(denied, () -> bob.exists(path("/traverse/missing/deeper")));
    assertDenied(denied.replace("bob", "carol"), () -> carol.getFileStatus(path("/traverse/f")));
    dir("/traverse/open", "alice", "staff", 0777);
    assertDenied(denied, () -> bob.create(path("/traverse/open/g")));
  }

  @Test
  void createAndMkdirsNeedWriteOnTheDeepestExistingAncestor() throws IOException {
    dir("/create", "alice", "staff", 0755);
    String denied = "Permission denied: user=bob, access=WRITE, inode=\"/create\":alice:staff:drwxr-xr-x";
    assertDenied(denied, () -> bob.create(path("/create/f")));
    assertDenied(denied, () -> bob.mkdirs(path("/create/a/b")));
    assertDenied(denied.replace("bob", "carol"), () -> carol.mkdirs(path("/create/c")));
    assertTrue(alice.mkdirs(path("/create/a/b")));
    touch(alice, "/create/a/b/f");
    // an existing directory needs execute on its ancestors only
    assertTrue(bob.mkdirs(path("/create/a")));
    assertFalse(superuser.exists(path("/create/f")));
  }

  @Test
  void overwriteNeedsWriteOnTheFile() throws IOException {
    dir("/overwrite", "alice", "staff", 0777);
    touch(alice, "/overwrite/f");
    assertDenied("Permission denied: user=bob, access=WRITE, inode=\"/overwrite/f\":alice:staff:-rw-r--r--",
        () -> bob.create(path("/overwrite/f"), true));
    assertThrows(FileAlreadyExistsException.class, () -> bob.create(path("/overwrite/f"), false));
    alice.create(path("/overwrite/f"), true).close();
  }

  @Test
  void openNeedsRead() throws IOException {
    dir("/read", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path secret = touch(alice, "/read/secret");
    alice.setPermission(secret, new FsPermission((short) 0640));
    assertDenied("Permission denied: user=bob, access=READ, inode=\"/read/secret\":alice:staff:-rw-r-----",
        () -> bob.open(secret).close());
    carol.open(secret).close(); // staff may read
    alice.open(secret).close();
    assertThrows(FileNotFoundException.class, () -> bob.open(path("/read/missing")));
  }

  @Test
  void listingADirectoryNeedsReadAndExecute() throws IOException {
    dir("/list", "alice", "staff", 0711);
    touch(alice, "/list/f");
    assertDenied("Permission denied: user=bob, access=READ_EXECUTE, inode=\"/list\":alice:staff:drwx--x--x",
        () -> bob.listStatus(path("/list")));
    assertEquals(1, bob.listStatus(path("/list/f")).length, "a file lists itself");
    assertNotNull(bob.getFileStatus(path("/list/f")));
    assertEquals(1, alice.listStatus(path("/list")).length);
  }

  @Test
  void deleteNeedsWriteOnTheParentAndAllOnEveryNonEmptySubdirectory() throws IOException {
    dir("/del", "alice", "staff", 0777);
    assertTrue(alice.mkdirs(path("/del/full/sub")));
    touch(alice, "/del/full/sub/f");
    assertTrue(alice.mkdirs(path("/del/empty")));
    assertTrue(bob.delete(path("/del/empty"), false), "an empty directory needs write on its parent only");
    String denied = "Permission denied: user=bob, access=ALL, inode=\"/del/full\":alice:staff:drwxr-xr-x";
    assertDenied(denied, () -> bob.delete(path("/del/full"), true));
    assertDenied(denied, () -> bob.delete(path("/del/full"), false));
    alice.setPermission(path("/del/full"), new FsPermission((short) 0777));
    assertDenied("Permission denied: user=bob, access=ALL, inode=\"/del/full/sub\":alice:staff:drwxr-xr-x",
        () -> bob.delete(path("/del/full"), true));
    assertTrue(superuser.exists(path("/del/full/sub/f")), "a refused delete removes nothing");
    assertTrue(alice.delete(path("/del/full"), true));

    dir("/del2", "alice", "staff", 0755);
    touch(alice, "/del2/f");
    String parentDenied = "Permission denied: user=bob, access=WRITE, inode=\"/del2\":alice:staff:drwxr-xr-x";
    assertDenied(parentDenied, () -> bob.delete(path("/del2/f"), false));
    assertDenied(parentDenied, () -> bob.delete(path("/del2/missing"), false));
  }

  @Test
  void theStickyBitKeepsOthersFromRemovingOrRenaming() throws IOException {
    dir("/sticky", superuserName, "supergroup", 01777);
    touch(alice, "/sticky/a");
    touch(bob, "/sticky/b");
    String denied = "Permission denied by sticky bit: user=bob, path=\"/sticky/a\":alice:supergroup:-rw-r--r--, "
        + "parent=\"/sticky\":" + superuserName + ":supergroup:drwxrwxrwt";
    assertDenied(denied, () -> bob.delete(path("/sticky/a"), false));
    assertDenied(denied, () -> bob.rename(path("/sticky/a"), path("/sticky/c")));
    assertDenied(denied, () -> bob.rename(path("/sticky/a"), path("/sticky/c"), Options.Rename.NONE));
    assertTrue(bob.delete(path("/sticky/b"), false), "one's own file");
    assertTrue(superuser.delete(path("/sticky/a"), false), "the superuser");

    dir("/sticky2", "carol", "staff", 01777);
    touch(alice, "/sticky2/a");
    assertTrue(carol.delete(path("/sticky2/a"), false), "the directory's owner");

    dir("/sticky3", "alice", "staff", 0777);
    dir("/sticky3/t", "alice", "staff", 01777);
    touch(carol, "/sticky3/t/c");
    assertDenied("Permission denied by sticky bit: user=bob, path=\"/sticky3/t/c\":carol:staff:-rw-r--r--, "
        + "parent=\"/sticky3/t\":alice:staff:drwxrwxrwt", () -> bob.delete(path("/sticky3/t"), true));
  }

  @Test
  void renameNeedsWriteOnTheSourceParentAndTheDestinationAncestor() throws IOException {
    dir("/mv-src", "bob", "bob", 0755);
    touch(bob, "/mv-src/f");
    dir("/mv-dst", "alice", "staff", 0755);
    String denied = "Permission denied: user=bob, access=WRITE, inode=\"/mv-dst\":alice:staff:drwxr-xr-x";
    assertDenied(denied, () -> bob.rename(path("/mv-src/f"), path("/mv-dst/f")));
    assertDenied(denied, () -> bob.rename(path("/mv-src/f"), path("/mv-dst")));
    assertDenied(denied, () -> bob.rename(path("/mv-src/f"), path("/mv-dst/f"), Options.Rename.NONE));
    assertDenied(denied, () -> bob.rename(path("/mv-src/f"), path("/mv-dst/new/deeper")));
    assertDenied("Permission denied: user=alice, access=WRITE, inode=\"/mv-src\":bob:bob:drwxr-xr-x",
        () -> alice.rename(path("/mv-src/f"), path("/mv-dst/f")));
    assertTrue(bob.rename(path("/mv-src/f"), path("/mv-src/g")));
    assertTrue(superuser.exists(path("/mv-src/g")));
  }

  @Test
  void onlyTheOwnerChangesThePermission() throws IOException {
    dir("/chmod", "alice", "staff", 0777);
    org.apache.hadoop.fs.Path file = touch(alice, "/chmod/f");
    assertDenied("Permission denied. user=bob is not the owner of inode=/chmod/f",
        () -> bob.setPermission(file, new FsPermission((short) 0777)));
    alice.setPermission(file, new FsPermission((short) 01600));
    assertEquals(01600, superuser.getFileStatus(file).getPermission().toShort());
    superuser.setPermission(file, new FsPermission((short) 0644));
    admin.setPermission(file, new FsPermission((short) 0640));
    assertEquals(0640, alice.getFileStatus(file).getPermission().toShort());
  }

  @Test
  void chownIsTheSuperusersAndChgrpGoesToTheOwnersGroups() throws IOException {
    dir("/chown", "alice", "staff", 0777);
    org.apache.hadoop.fs.Path file = touch(alice, "/chown/f");
    assertDenied("User alice is not a super user (non-super user cannot change owner).",
        () -> alice.setOwner(file, "bob", null));
    assertDenied("User alice does not belong to wheel", () -> alice.setOwner(file, null, "wheel"));
    assertDenied("Permission denied. user=bob is not the owner of inode=/chown/f",
        () -> bob.setOwner(file, null, "bob"));
    alice.setOwner(file, null, "alicegrp");
    alice.setOwner(file, "alice", "staff"); // naming oneself as owner is no change of owner
    assertEquals("staff", superuser.getFileStatus(file).getGroup());
    superuser.setOwner(file, "bob", "wheel");
    FileStatus status = alice.getFileStatus(file);
    assertEquals("bob", status.getOwner());
    assertEquals("wheel", status.getGroup());
    admin.setOwner(file, "carol", null);
    assertEquals("carol", alice.getFileStatus(file).getOwner());
  }

  @Test
  void setTimesAndSetReplicationNeedWrite() throws IOException {
    dir("/attrs", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path file = touch(alice, "/attrs/f");
    String denied = "Permission denied: user=bob, access=WRITE, inode=\"/attrs/f\":alice:staff:-rw-r--r--";
    assertDenied(denied, () -> bob.setTimes(file, 1_000L, 1_000L));
    assertDenied(denied, () -> bob.setReplication(file, (short) 2));
    alice.setTimes(file, 1_000L, 2_000L);
    assertEquals(1_000L, bob.getFileStatus(file).getModificationTime());
  }

  @Test
  void aContentSummaryNeedsReadAndExecuteOnEveryDirectory() throws IOException {
    dir("/du", "alice", "staff", 0755);
    assertTrue(alice.mkdirs(path("/du/open")));
    assertTrue(alice.mkdirs(path("/du/private")));
    alice.setPermission(path("/du/private"), new FsPermission((short) 0700));
    touch(alice, "/du/private/f");
    assertDenied("Permission denied: user=bob, access=READ_EXECUTE, inode=\"/du/private\":alice:staff:drwx------",
        () -> bob.getContentSummary(path("/du")));
    assertEquals(1, bob.getContentSummary(path("/du/open")).getDirectoryCount());
    assertEquals(1, alice.getContentSummary(path("/du")).getFileCount());
  }

  @Test
  void newFilesAndDirectoriesTakeTheParentsGroupAndTheCallerAsOwner() throws IOException {
    dir("/grp", superuserName, "staff", 0777);
    FileStatus file = bob.getFileStatus(touch(bob, "/grp/f"));
    assertEquals("bob", file.getOwner());
    assertEquals("staff", file.getGroup(), "bob is not in staff, the file still takes its parent's group");
    assertTrue(bob.mkdirs(path("/grp/d/e")));
    assertEquals("staff", bob.getFileStatus(path("/grp/d/e")).getGroup());
    assertEquals("bob", bob.getFileStatus(path("/grp/d")).getOwner());
  }

  @Test
  void theClientsUmaskIsWhatNewInodesGet() throws IOException {
    dir("/umask", "alice", "staff", 0777);
    Configuration strict = new Configuration(CLUSTER.cluster().conf());
    strict.set("fs.permissions.umask-mode", "027");
    DistributedFileSystem strictAlice = CLUSTER.users().as(UserGroupInformation.createUserForTesting("alice",
        new String[] {"staff", "alicegrp"}), strict);
    assertEquals(0640, strictAlice.getFileStatus(touch(strictAlice, "/umask/f")).getPermission().toShort());
    assertTrue(strictAlice.mkdirs(path("/umask/d/e")));
    assertEquals(0750, alice.getFileStatus(path("/umask/d/e")).getPermission().toShort());
    assertEquals(0750, alice.getFileStatus(path("/umask/d")).getPermission().toShort(),
        "mkdirs' missing parents: the mode plus owner write and execute");
    assertEquals(0644, alice.getFileStatus(touch(alice, "/umask/g")).getPermission().toShort(), "umask 022");
    assertTrue(alice.mkdirs(path("/umask/h")));
    assertEquals(0755, alice.getFileStatus(path("/umask/h")).getPermission().toShort());
    // create's missing parents take the deepest existing directory's mode (and owner write and execute), as HDFS
    alice.setPermission(path("/umask/h"), new FsPermission((short) 0515));
    assertDenied("Permission denied: user=alice, access=WRITE, inode=\"/umask/h\":alice:staff:dr-x--xr-x",
        () -> strictAlice.create(path("/umask/h/x/y/file")));
    alice.setPermission(path("/umask/h"), new FsPermission((short) 0735));
    strictAlice.create(path("/umask/h/x/y/file")).close();
    assertEquals(0735, alice.getFileStatus(path("/umask/h/x")).getPermission().toShort());
    assertEquals(0735, alice.getFileStatus(path("/umask/h/x/y")).getPermission().toShort());
    assertEquals(0640, alice.getFileStatus(path("/umask/h/x/y/file")).getPermission().toShort());
    superuser.setPermission(path("/umask/h"), new FsPermission((short) 01451));
    superuser.create(path("/umask/h/su/file")).close();
    assertEquals(0751, superuser.getFileStatus(path("/umask/h/su")).getPermission().toShort(),
        "owner write and execute added, the sticky bit not inherited");
  }

  @Test
  void theSuperuserAndTheSupergroupPassEveryCheck() throws IOException {
    dir("/su", "alice", "staff", 0700);
    org.apache.hadoop.fs.Path file = touch(alice, "/su/f");
    alice.setPermission(file, new FsPermission((short) 0000));
    for (DistributedFileSystem fs : new DistributedFileSystem[] {superuser, admin}) {
      fs.open(file).close();
      assertEquals(1, fs.listStatus(path("/su")).length);
      fs.setTimes(file, 5_000L, -1);
      assertNotNull(fs.getContentSummary(path("/su")));
    }
    assertTrue(admin.delete(path("/su"), true));
    // the client does not unwrap this one (as with HDFS): the remote exception names the class
    RemoteException remote = assertThrows(RemoteException.class, () -> bob.getDataNodeStats());
    assertEquals(AccessControlException.class.getName(), remote.getClassName());
    assertEquals("Access denied for user bob. Superuser privilege is required for operation datanodeReport",
        remote.getMessage().split("\n", 2)[0].trim());
    assertEquals(0, admin.getDataNodeStats().length);
  }

  @Test
  void accessChecksTheAskedAction() throws IOException {
    dir("/access", "alice", "staff", 0755);
    org.apache.hadoop.fs.Path file = touch(alice, "/access/f");
    alice.setPermission(file, new FsPermission((short) 0640));
    assertDenied("Permission denied: user=bob, access=READ, inode=\"/access/f\":alice:staff:-rw-r-----",
        () -> bob.access(file, FsAction.READ));
    carol.access(file, FsAction.READ);
    assertDenied("Permission denied: user=carol, access=WRITE, inode=\"/access/f\":alice:staff:-rw-r-----",
        () -> carol.access(file, FsAction.WRITE));
    alice.access(file, FsAction.READ_WRITE);
    assertThrows(FileNotFoundException.class, () -> bob.access(path("/access/missing"), FsAction.READ));
  }

  @Test
  void recoveringAnotherWritersLeaseNeedsWrite() throws IOException {
    dir("/lease", "alice", "staff", 0755);
    try (FSDataOutputStream out = alice.create(path("/lease/open"))) {
      assertDenied("Permission denied: user=bob, access=WRITE, inode=\"/lease/open\":alice:staff:-rw-r--r--",
          () -> bob.recoverLease(path("/lease/open")));
    }
    assertTrue(bob.recoverLease(path("/lease/open")), "a closed file: nothing to check, nothing to do");
  }

  @Test
  void aNonSuperuserCostsNoExtraRoundTrip() throws IOException {
    dir("/budget", "bob", "bob", 0755);
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    ClientProtocol namenode = bob.getClient().getNamenode();
    create(namenode, "/budget/first");
    assertEquals(2, roundTrips(nameNode, "create", () -> create(namenode, "/budget/second")));
    assertEquals(1, roundTrips(nameNode, "getFileInfo", () -> namenode.getFileInfo("/budget/first")));
    assertEquals(1, roundTrips(nameNode, "getBlockLocations", () -> namenode.getBlockLocations("/budget/first", 0,
        1)));
    assertEquals(1, roundTrips(nameNode, "getListing", () -> namenode.getListing("/budget", new byte[0], false)));
  }

  private static void create(ClientProtocol namenode, String path) throws IOException {
    assertNotNull(namenode.create(path, FsPermission.getFileDefault(), "budget-client",
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1024,
        CryptoProtocolVersion.supported(), null, null));
    namenode.complete(path, "budget-client", null, HdfsConstants.GRANDFATHER_INODE_ID);
  }

  interface IoRunnable {
    void run() throws IOException;
  }

  /** Round trips of the one {@code operation} call that {@code call} makes. */
  static long roundTrips(NameNode nameNode, String operation, IoRunnable call) throws IOException {
    OperationMetrics.Snapshot before = snapshot(nameNode, operation);
    call.run();
    OperationMetrics.Snapshot delta = snapshot(nameNode, operation).minus(before);
    assertEquals(1, delta.operations(), operation + " should have run exactly once");
    assertEquals(0, delta.retries(), operation + " should not have retried");
    return delta.roundTrips();
  }

  private static OperationMetrics.Snapshot snapshot(NameNode nameNode, String operation) {
    Map<String, OperationMetrics.Snapshot> all = nameNode.runner().metrics().snapshot();
    return all.getOrDefault(operation, OperationMetrics.Snapshot.ZERO);
  }
}
