package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.UserClients.assertDenied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code dfs.permissions.enabled=false}: no access check, but, as HDFS documents, chmod, chown and chgrp still check
 * ownership and chown stays the superuser's. {@code dfs.namenode.acls.enabled=false}: every ACL call is refused.
 */
@Timeout(120)
class PermissionsDisabledTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(conf -> {
    conf.setBoolean("dfs.permissions.enabled", false);
    conf.setBoolean("dfs.namenode.acls.enabled", false);
  }).build();
  static DistributedFileSystem superuser;
  static DistributedFileSystem alice;
  static DistributedFileSystem bob;

  @BeforeAll
  static void clients() throws IOException {
    superuser = CLUSTER.fileSystem();
    alice = CLUSTER.users().as("alice", "staff");
    bob = CLUSTER.users().as("bob", "bob");
  }

  @Test
  void accessIsNotChecked() throws IOException {
    org.apache.hadoop.fs.Path dir = path("/closed");
    assertTrue(superuser.mkdirs(dir));
    superuser.setOwner(dir, "alice", "staff");
    superuser.setPermission(dir, new FsPermission((short) 01700));
    org.apache.hadoop.fs.Path file = path("/closed/f");
    alice.create(file).close();
    alice.setPermission(file, new FsPermission((short) 0000));
    bob.open(file).close();
    assertEquals(1, bob.listStatus(dir).length);
    bob.create(path("/closed/bobs")).close();
    bob.access(file, FsAction.ALL);
    bob.setTimes(file, 1_000L, -1);
    assertTrue(bob.rename(file, path("/closed/g")), "sticky bit not checked either");
    assertTrue(bob.delete(dir, true));
    assertEquals(0, bob.getDataNodeStats().length, "superuser calls are open too");
  }

  @Test
  void ownershipIsStillChecked() throws IOException {
    assertTrue(superuser.mkdirs(path("/owned")));
    superuser.setOwner(path("/owned"), "alice", "staff");
    org.apache.hadoop.fs.Path file = path("/owned/f");
    alice.create(file).close();
    assertDenied("Permission denied. user=bob is not the owner of inode=/owned/f",
        () -> bob.setPermission(file, new FsPermission((short) 0777)));
    assertDenied("Permission denied. user=bob is not the owner of inode=/owned/f",
        () -> bob.setOwner(file, null, "bob"));
    assertDenied("User alice is not a super user (non-super user cannot change owner).",
        () -> alice.setOwner(file, "bob", null));
    assertDenied("User alice does not belong to wheel", () -> alice.setOwner(file, null, "wheel"));
    alice.setPermission(file, new FsPermission((short) 0600));
    // HDFS checks ownership with the traverse check that comes with it, even with checking off
    superuser.setOwner(path("/owned"), "carol", "carol");
    superuser.setPermission(path("/owned"), new FsPermission((short) 0700));
    assertDenied("Permission denied: user=alice, access=EXECUTE, inode=\"/owned\":carol:carol:drwx------",
        () -> alice.setPermission(file, new FsPermission((short) 0644)));
    superuser.setOwner(file, "bob", "wheel");
    assertEquals("bob", alice.getFileStatus(file).getOwner(), "other calls need no execute");
  }

  @Test
  void aclCallsAreRefusedWhenAclsAreDisabled() throws IOException {
    org.apache.hadoop.fs.Path file = path("/noacl");
    superuser.create(file).close();
    String refused = "The ACL operation has been rejected.  Support for ACLs has been disabled by setting "
        + "dfs.namenode.acls.enabled to false.";
    AclException set = assertThrows(AclException.class, () -> superuser.modifyAclEntries(file,
        AclEntry.parseAclSpec("user:bob:rwx", true)));
    assertEquals(refused, set.getMessage().split("\n", 2)[0].trim());
    AclException get = assertThrows(AclException.class, () -> superuser.getAclStatus(file));
    assertEquals(refused, get.getMessage().split("\n", 2)[0].trim());
  }
}
