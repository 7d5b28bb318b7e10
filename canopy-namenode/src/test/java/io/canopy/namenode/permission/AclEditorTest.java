package io.canopy.namenode.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.junit.jupiter.api.Test;

/** The ACL changes follow HDFS's rules: masks, default base entries, validation and its messages. */
class AclEditorTest {
  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }

  private static List<AclEntry> keys(String spec) {
    return AclEntry.parseAclSpec(spec, false);
  }

  private static final List<AclEntry> MINIMAL = acl("user::rwx,group::r-x,other::r--");

  @Test
  void mergeAddsANamedUserAndCalculatesTheMask() throws AclException {
    assertEquals(acl("user::rwx,user:bob:rw-,group::r-x,mask::rwx,other::r--"),
        AclEditor.merge(MINIMAL, acl("user:bob:rw-")));
  }

  @Test
  void mergeReplacesAnEntryWithTheSameKeyAndKeepsAGivenMask() throws AclException {
    List<AclEntry> existing = acl("user::rwx,user:bob:rw-,group::r-x,mask::rwx,other::r--");
    assertEquals(acl("user::rwx,user:bob:r--,group::r-x,mask::r--,other::r--"),
        AclEditor.merge(existing, acl("user:bob:r--,mask::r--")));
    // without a mask in the spec, a scope the spec touched gets its mask recalculated: union of bob and the group
    assertEquals(acl("user::rwx,user:bob:--x,group::r--,mask::r-x,other::r--"),
        AclEditor.merge(existing, acl("user:bob:--x,group::r--")));
  }

  @Test
  void aDefaultAclGetsItsBaseEntriesFromTheAccessAcl() throws AclException {
    assertEquals(acl("user::rwx,group::r-x,other::r--,default:user::rwx,default:user:bob:r-x,default:group::r-x,"
        + "default:mask::r-x,default:other::r--"), AclEditor.merge(MINIMAL, acl("default:user:bob:r-x")));
  }

  @Test
  void removeRecalculatesTheMaskAndKeepsAnUntouchedScope() throws AclException {
    List<AclEntry> existing = acl("user::rwx,user:bob:rwx,group::r--,group:staff:r-x,mask::rwx,other::---,"
        + "default:user::rwx,default:group::r-x,default:other::---");
    assertEquals(acl("user::rwx,group::r--,group:staff:r-x,mask::r-x,other::---,"
        + "default:user::rwx,default:group::r-x,default:other::---"), AclEditor.remove(existing, keys("user:bob")));
  }

  @Test
  void aNeededMaskCannotBeRemoved() {
    List<AclEntry> existing = acl("user::rwx,user:bob:rwx,group::r--,mask::rwx,other::---");
    AclException e = assertThrows(AclException.class, () -> AclEditor.remove(existing, keys("mask::")));
    assertEquals("Invalid ACL: mask is required and cannot be deleted.", e.getMessage());
  }

  @Test
  void replaceKeepsTheScopeTheSpecDoesNotName() throws AclException {
    List<AclEntry> existing = acl("user::rwx,user:bob:rwx,group::r--,mask::rwx,other::---,"
        + "default:user::rwx,default:group::r-x,default:other::---");
    assertEquals(acl("user::rw-,group::r--,other::r--,default:user::rwx,default:group::r-x,default:other::---"),
        AclEditor.replace(existing, acl("user::rw-,group::r--,other::r--")));
  }

  @Test
  void replaceNeedsTheBaseEntries() {
    AclException e = assertThrows(AclException.class, () -> AclEditor.replace(MINIMAL, acl("user:bob:rwx")));
    assertEquals("Invalid ACL: the user, group and other entries are required.", e.getMessage());
  }

  @Test
  void removeDefaultKeepsTheAccessAclAsItIs() throws AclException {
    List<AclEntry> existing = acl("user::rwx,user:bob:rwx,group::r--,mask::r--,other::---,"
        + "default:user::rwx,default:group::r-x,default:other::---");
    assertEquals(acl("user::rwx,user:bob:rwx,group::r--,mask::r--,other::---"), AclEditor.removeDefault(existing));
  }

  @Test
  void invalidSpecsAreRefusedWithHdfsMessages() {
    assertEquals("Invalid ACL: multiple entries with same scope, type and name.", assertThrows(AclException.class,
        () -> AclEditor.replace(MINIMAL, acl("user::rwx,user:bob:r--,user:bob:rw-,group::r--,other::---")))
        .getMessage());
    List<AclEntry> tooMany = new ArrayList<>(MINIMAL);
    for (int i = 0; i < 32; i++) {
      tooMany.add(acl("user:u" + i + ":r--").get(0));
    }
    assertEquals("Invalid ACL: ACL has 35 access entries, which exceeds maximum of 32.",
        assertThrows(AclException.class, () -> AclEditor.replace(MINIMAL, tooMany)).getMessage());
    assertEquals("Invalid ACL: this entry type must not have a name: mask:staff:rwx.",
        assertThrows(AclException.class, () -> AclEditor.merge(MINIMAL, acl("user:bob:r--,mask:staff:rwx")))
            .getMessage());
  }
}
