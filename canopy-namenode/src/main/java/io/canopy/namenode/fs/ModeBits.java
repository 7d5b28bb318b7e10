package io.canopy.namenode.fs;

import org.apache.hadoop.fs.permission.FsPermission;

/**
 * What the inode table's {@code permission} column holds: the mode bits (rwx for owner, group and other, and the
 * sticky bit) and, in bit 12 as HDFS's {@code FsPermissionExtension} numbers it, whether the inode has a POSIX ACL
 * (entries in the ACL table). The bit lets every operation know, from the rows it read anyway, which inodes have ACL
 * rows worth reading. When an inode has an access ACL, its group bits are the ACL's mask, as in HDFS.
 */
public final class ModeBits {
  /** The inode has ACL entries (HDFS's ACL bit). */
  public static final short ACL_BIT = 1 << 12;
  /** rwxrwxrwx and the sticky bit. */
  public static final short MODE_MASK = 01777;

  private ModeBits() {
  }

  public static boolean hasAcl(short stored) {
    return (stored & ACL_BIT) != 0;
  }

  /** The mode bits without the ACL bit. */
  public static short mode(short stored) {
    return (short) (stored & MODE_MASK);
  }

  /** The mode bits as Hadoop's permission (no ACL bit: HDFS reports that as a file status flag). */
  public static FsPermission permission(short stored) {
    return new FsPermission(mode(stored));
  }

  /** {@code mode}'s bits (the ACL bit of {@code mode} ignored) with the ACL bit set when {@code acl}. */
  public static short stored(short mode, boolean acl) {
    return (short) ((mode & MODE_MASK) | (acl ? ACL_BIT : 0));
  }
}
