package io.canopy.it;

import static io.canopy.it.TestFiles.path;
import static io.canopy.it.UserClients.assertDenied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.MetadataStore;
import io.canopy.namenode.NameNode;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POSIX ACLs as HDFS keeps them: the six ACL calls and their rules, the ACL bit in file statuses, ACL evaluation
 * with named users and groups masked by the group bits, default ACLs copied to new children (filtered by the
 * unmasked mode the client sends), and the rows going with their inode.
 */
@Timeout(180)
class AclTest {
  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder()
      .configure(conf -> conf.setInt("dfs.replication", 1)).build();
  static DistributedFileSystem superuser;
  static DistributedFileSystem alice;
  static DistributedFileSystem bob;
  static DistributedFileSystem dave;
  static DistributedFileSystem erin;

  @BeforeAll
  static void clients() throws IOException {
    superuser = CLUSTER.fileSystem();
    alice = CLUSTER.users().as("alice", "staff");
    bob = CLUSTER.users().as("bob", "bob");
    dave = CLUSTER.users().as("dave", "dev");
    erin = CLUSTER.users().as("erin", "staff");
  }

  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }

  /** A directory owned by alice (group staff) with {@code mode}. */
  private static org.apache.hadoop.fs.Path aliceDir(String path, int mode) throws IOException {
    org.apache.hadoop.fs.Path dir = path(path);
    assertTrue(superuser.mkdirs(dir));
    superuser.setOwner(dir, "alice", "staff");
    superuser.setPermission(dir, new FsPermission((short) mode));
    return dir;
  }

  private static org.apache.hadoop.fs.Path aliceFile(String path, int mode) throws IOException {
    org.apache.hadoop.fs.Path file = path(path);
    alice.create(file, false).close();
    alice.setPermission(file, new FsPermission((short) mode));
    return file;
  }

  @Test
  void setAclAndGetAclStatusRoundTripAndStatusesShowTheAclBit() throws IOException {
    aliceDir("/acl1", 0755);
    org.apache.hadoop.fs.Path file = aliceFile("/acl1/f", 0640);
    assertFalse(bob.getFileStatus(file).hasAcl());
    alice.setAcl(file, acl("user::rw-,user:bob:r--,group::r--,mask::r--,other::---"));
    AclStatus status = bob.getAclStatus(file);
    assertEquals("alice", status.getOwner());
    assertEquals("staff", status.getGroup());
    assertEquals(acl("user:bob:r--,group::r--"), status.getEntries());
    assertEquals(new FsPermission((short) 0640), status.getPermission());
    FileStatus stat = bob.getFileStatus(file);
    assertTrue(stat.hasAcl());
    assertTrue(stat.getPermission().getAclBit(), "clients see the ACL bit (ls prints '+')");
    assertEquals(0640, stat.getPermission().toShort());
    assertTrue(bob.listStatus(path("/acl1"))[0].hasAcl());
    assertFalse(bob.getFileStatus(path("/acl1")).hasAcl());
    // a minimal ACL is no ACL: the bits only
    alice.setAcl(file, acl("user::rw-,group::r--,other::r--"));
    assertFalse(bob.getFileStatus(file).hasAcl());
    assertEquals(0644, bob.getFileStatus(file).getPermission().toShort());
    assertEquals(List.of(), bob.getAclStatus(file).getEntries());
  }

  @Test
  void namedEntriesGrantAccessWithinTheMask() throws IOException {
    aliceDir("/acl2", 0755);
    org.apache.hadoop.fs.Path file = aliceFile("/acl2/f", 0600);
    String denied = "Permission denied: user=bob, access=READ, inode=\"/acl2/f\":alice:staff:-rw-------";
    assertDenied(denied, () -> bob.open(file).close());
    alice.modifyAclEntries(file, acl("user:bob:r--,group:dev:rw-"));
    assertEquals(0660, alice.getFileStatus(file).getPermission().toShort(), "mask: union of group class");
    bob.open(file).close();
    dave.access(file, FsAction.READ_WRITE);
    assertDenied("Permission denied: user=bob, access=WRITE, inode=\"/acl2/f\":alice:staff:-rw-rw----",
        () -> bob.access(file, FsAction.WRITE));
    assertDenied("Permission denied: user=erin, access=READ, inode=\"/acl2/f\":alice:staff:-rw-rw----",
        () -> erin.access(file, FsAction.READ));
    // chmod sets the mask: the entries stay, masked away
    alice.setPermission(file, new FsPermission((short) 0600));
    assertDenied(denied, () -> bob.open(file).close());
    assertEquals(acl("user:bob:r--,group::---,group:dev:rw-"), alice.getAclStatus(file).getEntries());
    assertTrue(alice.getFileStatus(file).hasAcl());
    alice.setPermission(file, new FsPermission((short) 0640));
    bob.open(file).close();
  }

  @Test
  void anAclOnAnAncestorGrantsTraverse() throws IOException {
    org.apache.hadoop.fs.Path dir = aliceDir("/acl3", 0700);
    aliceFile("/acl3/f", 0644);
    assertDenied("Permission denied: user=bob, access=EXECUTE, inode=\"/acl3\":alice:staff:drwx------",
        () -> bob.getFileStatus(path("/acl3/f")));
    alice.modifyAclEntries(dir, acl("user:bob:--x"));
    assertEquals("alice", bob.getFileStatus(path("/acl3/f")).getOwner());
    assertDenied("Permission denied: user=bob, access=READ_EXECUTE, inode=\"/acl3\":alice:staff:drwx--x---",
        () -> bob.listStatus(dir));
  }

  @Test
  void newChildrenInheritTheDefaultAclFilteredByTheUnmaskedMode() throws IOException {
    org.apache.hadoop.fs.Path dir = aliceDir("/acl4", 0750);
    alice.modifyAclEntries(dir, acl("default:user:bob:rwx"));
    assertEquals(acl("default:user::rwx,default:user:bob:rwx,default:group::r-x,default:mask::rwx,"
        + "default:other::---"), alice.getAclStatus(dir).getEntries(), "the base entries copied from the access ACL");
    alice.setPermission(dir, new FsPermission((short) 0755));

    // created with 0666 masked by umask 022 to 0644, but the default ACL applies to the unmasked 0666
    org.apache.hadoop.fs.Path file = path("/acl4/f");
    alice.create(file).close();
    assertEquals(acl("user:bob:rwx,group::r-x"), alice.getAclStatus(file).getEntries());
    assertEquals(0660, alice.getFileStatus(file).getPermission().toShort(), "mask: default mask & group rw-");
    bob.access(file, FsAction.READ_WRITE);
    assertDenied("Permission denied: user=bob, access=EXECUTE, inode=\"/acl4/f\":alice:staff:-rw-rw----",
        () -> bob.access(file, FsAction.EXECUTE));

    assertTrue(alice.mkdirs(path("/acl4/sub")));
    List<AclEntry> inherited = acl("user:bob:rwx,group::r-x,default:user::rwx,default:user:bob:rwx,"
        + "default:group::r-x,default:mask::rwx,default:other::---");
    assertEquals(inherited, alice.getAclStatus(path("/acl4/sub")).getEntries());
    assertEquals(0770, alice.getFileStatus(path("/acl4/sub")).getPermission().toShort());
    assertTrue(alice.mkdirs(path("/acl4/a/b")));
    assertEquals(inherited, alice.getAclStatus(path("/acl4/a")).getEntries(), "an implicit parent inherits too");
    assertEquals(inherited, alice.getAclStatus(path("/acl4/a/b")).getEntries());
    alice.create(path("/acl4/a/b/g")).close();
    bob.access(path("/acl4/a/b/g"), FsAction.WRITE);
    // create's missing parents: the deepest existing directory's mode (0755) plus u+wx filters the default ACL
    alice.create(path("/acl4/p/q/file")).close();
    assertEquals(inherited, alice.getAclStatus(path("/acl4/p")).getEntries());
    assertEquals(0750, alice.getFileStatus(path("/acl4/p")).getPermission().toShort());
    assertEquals(acl("user:bob:rwx,group::r-x"), alice.getAclStatus(path("/acl4/p/q/file")).getEntries());
    assertEquals(0660, alice.getFileStatus(path("/acl4/p/q/file")).getPermission().toShort());

    // a directory without a default ACL: the masked mode, no ACL
    alice.removeDefaultAcl(path("/acl4/sub"));
    alice.create(path("/acl4/sub/plain")).close();
    assertFalse(alice.getFileStatus(path("/acl4/sub/plain")).hasAcl());
    assertEquals(0644, alice.getFileStatus(path("/acl4/sub/plain")).getPermission().toShort());
  }

  @Test
  void removingEntriesDefaultsOrTheWholeAcl() throws IOException {
    org.apache.hadoop.fs.Path dir = aliceDir("/acl5", 0750);
    alice.setAcl(dir, acl("user::rwx,user:bob:rwx,group::r-x,mask::rwx,other::---,default:user::rwx,"
        + "default:group::r-x,default:other::---"));
    assertEquals(0770, alice.getFileStatus(dir).getPermission().toShort());
    alice.removeDefaultAcl(dir);
    assertEquals(acl("user:bob:rwx,group::r-x"), alice.getAclStatus(dir).getEntries());
    alice.removeAclEntries(dir, AclEntry.parseAclSpec("user:bob", false));
    assertEquals(acl("group::r-x"), alice.getAclStatus(dir).getEntries(), "the mask stays, recalculated");
    assertEquals(0750, alice.getFileStatus(dir).getPermission().toShort());
    assertTrue(alice.getFileStatus(dir).hasAcl());
    alice.modifyAclEntries(dir, acl("user:bob:rwx,mask::rwx"));
    alice.removeAcl(dir);
    assertFalse(alice.getFileStatus(dir).hasAcl());
    assertEquals(0750, alice.getFileStatus(dir).getPermission().toShort(), "group bits from the group entry");
    assertEquals(List.of(), alice.getAclStatus(dir).getEntries());
    alice.removeAcl(dir); // nothing to remove: no error
    alice.setAcl(dir, acl("user:bob:r-x,group::r-x,mask::rwx,user::rwx,other::---"));
    alice.setAcl(dir, List.of()); // HDFS: an empty spec removes the ACL
    assertFalse(alice.getFileStatus(dir).hasAcl());
  }

  @Test
  void onlyTheOwnerOrTheSuperuserChangesAnAcl() throws IOException {
    aliceDir("/acl6", 0755);
    org.apache.hadoop.fs.Path file = aliceFile("/acl6/f", 0644);
    String denied = "Permission denied. user=bob is not the owner of inode=/acl6/f";
    assertDenied(denied, () -> bob.setAcl(file, acl("user::rw-,group::r--,other::r--")));
    assertDenied(denied, () -> bob.modifyAclEntries(file, acl("user:bob:rwx")));
    assertDenied(denied, () -> bob.removeAclEntries(file, AclEntry.parseAclSpec("user:bob", false)));
    assertDenied(denied, () -> bob.removeDefaultAcl(file));
    assertDenied(denied, () -> bob.removeAcl(file));
    superuser.modifyAclEntries(file, acl("user:bob:rwx"));
    assertEquals(acl("user:bob:rwx,group::r--"), bob.getAclStatus(file).getEntries());
    assertThrows(java.io.FileNotFoundException.class, () -> bob.getAclStatus(path("/acl6/missing")));
    assertThrows(java.io.FileNotFoundException.class, () -> alice.setAcl(path("/acl6/missing"),
        acl("user::rw-,group::r--,other::r--")));
  }

  @Test
  void invalidAclsAreRefusedWithHdfsMessages() throws IOException {
    aliceDir("/acl7", 0755);
    org.apache.hadoop.fs.Path file = aliceFile("/acl7/f", 0644);
    AclException onFile = assertThrows(AclException.class, () -> alice.modifyAclEntries(file,
        acl("default:user:bob:rwx")));
    assertTrue(onFile.getMessage().startsWith("Invalid ACL: only directories may have a default ACL."),
        onFile.getMessage());
    alice.modifyAclEntries(file, acl("user:bob:rwx"));
    AclException mask = assertThrows(AclException.class, () -> alice.removeAclEntries(file,
        AclEntry.parseAclSpec("mask::", false)));
    assertEquals("Invalid ACL: mask is required and cannot be deleted. Path: /acl7/f",
        mask.getMessage().split("\n", 2)[0].trim());
    AclException base = assertThrows(AclException.class, () -> alice.setAcl(file, acl("user:bob:rwx")));
    assertTrue(base.getMessage().startsWith("Invalid ACL: the user, group and other entries are required."),
        base.getMessage());
    assertEquals(acl("user:bob:rwx,group::r--"), alice.getAclStatus(file).getEntries(), "nothing changed");
  }

  @Test
  void aclRowsGoWithTheirInodeAndFollowRenames() throws Exception {
    aliceDir("/acl8", 0755);
    org.apache.hadoop.fs.Path file = aliceFile("/acl8/f", 0644);
    alice.modifyAclEntries(file, acl("user:bob:rwx,user:dave:r--"));
    long id = alice.getClient().getFileInfo("/acl8/f").getFileId();
    assertEquals("3", aclRows(id));
    assertTrue(alice.rename(file, path("/acl8/g")));
    assertEquals(acl("user:bob:rwx,user:dave:r--,group::r--"), alice.getAclStatus(path("/acl8/g")).getEntries());
    alice.create(path("/acl8/g"), true).close(); // overwrite: a new inode, the old one's rows gone
    assertEquals("0", aclRows(id));
    assertFalse(alice.getFileStatus(path("/acl8/g")).hasAcl());

    org.apache.hadoop.fs.Path dir = path("/acl8/d");
    assertTrue(alice.mkdirs(path("/acl8/d/e")));
    alice.modifyAclEntries(dir, acl("user:bob:rwx,default:user:bob:rwx"));
    alice.create(path("/acl8/d/e/inherits-nothing")).close();
    alice.create(path("/acl8/d/inherits")).close();
    long dirId = alice.getClient().getFileInfo("/acl8/d").getFileId();
    long childId = alice.getClient().getFileInfo("/acl8/d/inherits").getFileId();
    assertEquals("7", aclRows(dirId));
    assertEquals("2", aclRows(childId));
    assertTrue(alice.delete(dir, true));
    assertEquals("0", aclRows(dirId));
    assertEquals("0", aclRows(childId));
  }

  private static String aclRows(long inodeId) throws IOException {
    try (MetadataStore store = CLUSTER.cluster().openStore()) {
      return StoreQueries.query(store, "SELECT count(*) FROM acl_entries WHERE inode_id = " + inodeId, 1).rows().get(0)
          .get(0);
    }
  }

  @Test
  void aclsCostARoundTripOnlyWhereThePathHasThem() throws IOException {
    aliceDir("/acl9", 0755);
    aliceDir("/acl9/plain", 0755);
    aliceDir("/acl9/extended", 0755);
    aliceFile("/acl9/plain/f", 0644);
    aliceFile("/acl9/extended/f", 0644);
    alice.modifyAclEntries(path("/acl9/extended"), acl("user:bob:r-x"));
    NameNode nameNode = CLUSTER.cluster().nameNode(0);
    bob.getFileStatus(path("/acl9/plain/f")); // warms the hints
    bob.getFileStatus(path("/acl9/extended/f"));
    assertEquals(1, PermissionsTest.roundTrips(nameNode, "getFileInfo",
        () -> bob.getClient().getFileInfo("/acl9/plain/f")));
    assertEquals(2, PermissionsTest.roundTrips(nameNode, "getFileInfo",
        () -> bob.getClient().getFileInfo("/acl9/extended/f")), "the ACL rows of the ancestor that has them");
    assertEquals(1, PermissionsTest.roundTrips(nameNode, "getFileInfo",
        () -> superuser.getClient().getFileInfo("/acl9/extended/f")), "the superuser never needs them");
  }
}
