package io.canopy.namenode.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.namenode.fs.ModeBits;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.junit.jupiter.api.Test;

/** An ACL splits into permission bits and rows as HDFS splits it into mode and ACL feature, and back. */
class InodeAclsTest {
  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }

  @Test
  void anExtendedAclKeepsOwnerMaskAndOtherInTheModeAndTheRestInRows() throws AclException {
    short sticky = (short) 01755;
    InodeAcls.Stored stored = InodeAcls.store(sticky, true, "/d",
        acl("user::rwx,user:bob:rw-,group::r-x,mask::r--,other::--x,default:user::rwx,default:group::r-x,"
            + "default:other::---"));
    assertTrue(ModeBits.hasAcl(stored.permission()));
    assertEquals(new FsPermission((short) 01741), ModeBits.permission(stored.permission()), "mask in group bits");
    assertEquals(acl("user:bob:rw-,group::r-x,default:user::rwx,default:group::r-x,default:other::---"),
        stored.entries());
    assertEquals(acl("user::rwx,user:bob:rw-,group::r-x,mask::r--,other::--x,default:user::rwx,default:group::r-x,"
        + "default:other::---"), InodeAcls.logical(stored.permission(), stored.entries()), "round trip");
  }

  @Test
  void aMinimalAclIsJustTheModeWithoutTheBit() throws AclException {
    InodeAcls.Stored stored = InodeAcls.store(ModeBits.stored((short) 0640, true), false, "/f",
        acl("user::rw-,group::r--,other::---"));
    assertEquals((short) 0640, stored.permission());
    assertEquals(List.of(), stored.entries());
    assertEquals(acl("user::rw-,group::r--,other::---"), InodeAcls.logical(stored.permission(), List.of()));
  }

  @Test
  void onlyDirectoriesHaveDefaultAcls() {
    AclException e = assertThrows(AclException.class, () -> InodeAcls.store((short) 0644, false, "/f",
        acl("user::rw-,group::r--,other::---,default:user::rwx,default:group::r--,default:other::---")));
    assertEquals("Invalid ACL: only directories may have a default ACL. Path: /f", e.getMessage());
  }

  @Test
  void removingTheAclGivesTheGroupBitsBackFromTheGroupEntry() {
    short withMask = ModeBits.stored((short) 0770, true); // mask rwx in the group bits
    assertEquals((short) 0750, InodeAcls.withoutAcl(withMask, acl("user:bob:rwx,group::r-x")));
    assertEquals((short) 0770, InodeAcls.withoutAcl(withMask, acl("default:user::rwx,default:group::r-x,"
        + "default:other::---")), "a default ACL only: the group bits are the group's");
  }

  @Test
  void childrenInheritTheDefaultAclFilteredByTheirMode() {
    List<AclEntry> parent = acl("default:user::rwx,default:user:bob:r-x,default:group::r-x,default:mask::rwx,"
        + "default:other::r-x");
    InodeAcls.Stored file = InodeAcls.inherit(parent, new FsPermission((short) 0640), false);
    // owner rwx & rw-, mask rwx & r--, other r-x & ---
    assertEquals(ModeBits.stored((short) 0640, true), file.permission());
    assertEquals(acl("user:bob:r-x,group::r-x"), file.entries());
    InodeAcls.Stored directory = InodeAcls.inherit(parent, new FsPermission((short) 0777), true);
    assertEquals(ModeBits.stored((short) 0775, true), directory.permission());
    assertEquals(acl("user:bob:r-x,group::r-x,default:user::rwx,default:user:bob:r-x,default:group::r-x,"
        + "default:mask::rwx,default:other::r-x"), directory.entries(), "a directory keeps the default ACL");
  }

  @Test
  void aMinimalDefaultAclFiltersTheGroupAndLeavesAFileWithoutAcl() {
    InodeAcls.Stored file = InodeAcls.inherit(acl("default:user::rwx,default:group::rwx,default:other::rwx"),
        FsCreateModes.create(new FsPermission((short) 0644), new FsPermission((short) 0666)).getUnmasked(), false);
    assertEquals((short) 0666, file.permission());
    assertFalse(ModeBits.hasAcl(file.permission()));
    assertEquals(List.of(), file.entries());
  }

  @Test
  void noDefaultAclNoInheritance() {
    assertNull(InodeAcls.inherit(acl("user:bob:rwx,group::r-x"), new FsPermission((short) 0644), false));
  }

  @Test
  void rowsRoundTrip() {
    List<AclEntry> entries = acl("user:bob:rw-,group::r-x,group:staff:--x,default:user::rwx,default:mask::r--");
    List<InodeAclEntry> rows = InodeAcls.rows(7, entries);
    assertEquals(5, rows.size());
    assertEquals(4, rows.get(4).position());
    assertEquals(entries, InodeAcls.entries(rows));
  }
}
