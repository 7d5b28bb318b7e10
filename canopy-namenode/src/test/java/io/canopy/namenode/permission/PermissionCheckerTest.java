package io.canopy.namenode.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.Caller;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.PermissionSettings;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.Test;

/** Access decisions on one inode: owner, group and other classes, and POSIX ACL evaluation with the mask. */
class PermissionCheckerTest {
  private static final PermissionSettings SETTINGS = new PermissionSettings(true, "nn", "supergroup", true, true);

  private static PermissionChecker as(String user, String... groups) {
    return PermissionChecker.of(SETTINGS, Caller.of(user, Set.of(groups)));
  }

  private static Inode file(int mode, boolean acl) {
    return Inode.builder().id(100).partitionId(1).parentId(1).name("f")
        .permission(ModeBits.stored((short) mode, acl)).owner("alice").group("staff").replication((short) 1)
        .preferredBlockSize(1024).build();
  }

  @Test
  void ownerGroupAndOtherClassesDecide() {
    Inode inode = file(0640, false);
    assertTrue(as("alice").permits(inode, null, FsAction.READ_WRITE));
    assertFalse(as("alice").permits(inode, null, FsAction.EXECUTE));
    assertTrue(as("bob", "staff").permits(inode, null, FsAction.READ));
    assertFalse(as("bob", "staff").permits(inode, null, FsAction.WRITE));
    assertFalse(as("carol", "other").permits(inode, null, FsAction.READ));
    // the owner class decides for the owner even when the group would allow more
    assertFalse(as("alice", "staff").permits(file(0070, false), null, FsAction.READ));
  }

  @Test
  void aclEntriesAreMaskedByTheGroupBits() {
    List<AclEntry> stored = AclEntry.parseAclSpec("user:bob:rwx,group::r--,group:dev:rw-", true);
    Inode masked = file(0640, true); // mask r--
    assertTrue(as("bob").permits(masked, stored, FsAction.READ));
    assertFalse(as("bob").permits(masked, stored, FsAction.WRITE), "bob's rwx is masked to r--");
    assertFalse(as("carol", "dev").permits(masked, stored, FsAction.WRITE), "dev's rw- is masked to r--");
    Inode open = file(0670, true); // mask rwx
    assertTrue(as("bob").permits(open, stored, FsAction.ALL));
    assertTrue(as("carol", "dev").permits(open, stored, FsAction.READ_WRITE));
    assertTrue(as("dave", "staff", "dev").permits(open, stored, FsAction.WRITE), "any matching group may grant");
    assertFalse(as("erin", "staff").permits(open, stored, FsAction.WRITE));
    assertFalse(as("erin", "staff").permits(file(0677, true), stored, FsAction.WRITE),
        "a matching group that denies is not overridden by other");
    assertTrue(as("frank").permits(file(0674, true), stored, FsAction.READ), "no match: other bits");
  }

  @Test
  void aDefaultOnlyAclIsNotEnforced() {
    List<AclEntry> defaults = AclEntry.parseAclSpec("default:user::rwx,default:group::rwx,default:other::rwx", true);
    assertFalse(as("bob").permits(file(0640, true), defaults, FsAction.READ));
  }

  @Test
  void theSuperuserIsTheNamenodeUserOrAMemberOfTheSupergroup() throws AccessControlException {
    assertTrue(as("nn").isSuperuser());
    assertTrue(as("root", "supergroup").isSuperuser());
    assertFalse(as("bob", "staff").isSuperuser());
    as("root", "supergroup").checkSuperuser("datanodeReport");
    assertEquals("Access denied for user bob. Superuser privilege is required for operation datanodeReport",
        assertThrows(AccessControlException.class, () -> as("bob").checkSuperuser("datanodeReport")).getMessage());
  }

  @Test
  void ownershipChangesFollowHdfs() throws AccessControlException {
    as("alice", "staff", "dev").checkOwnershipChange("alice", "dev");
    as("nn").checkOwnershipChange("bob", "anything");
    assertEquals("User alice is not a super user (non-super user cannot change owner).", assertThrows(
        AccessControlException.class, () -> as("alice", "staff").checkOwnershipChange("bob", null)).getMessage());
    assertEquals("User alice does not belong to wheel", assertThrows(AccessControlException.class,
        () -> as("alice", "staff").checkOwnershipChange(null, "wheel")).getMessage());
    PermissionSettings off = new PermissionSettings(false, "nn", "supergroup", true, true);
    assertThrows(AccessControlException.class, () -> PermissionChecker.of(off, Caller.of("alice", Set.of()))
        .checkOwnershipChange("bob", null), "chown stays the superuser's with checking off");
  }
}
