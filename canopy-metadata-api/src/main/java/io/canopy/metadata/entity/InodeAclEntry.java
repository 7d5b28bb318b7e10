package io.canopy.metadata.entity;

import java.util.Objects;

/**
 * One stored entry of an inode's POSIX ACL (HDFS's ACL feature): what the permission bits cannot hold, i.e. the
 * named user and group entries and the unnamed group entry of the access ACL, and the whole default ACL. The owner,
 * mask and other entries of the access ACL live in the inode's permission bits (the group bits hold the mask).
 * {@code position} orders an inode's entries (0, 1, ...) in HDFS's ACL order; {@code name} is null for the unnamed
 * entries; {@code permission} is the rwx bits (0..7). Codes are stored; never renumber.
 */
public record InodeAclEntry(long inodeId, int position, Scope scope, Type type, String name, int permission) {
  /** Access entries are enforced; default entries are copied to new children. */
  public enum Scope {
    ACCESS(0), DEFAULT(1);

    private final int code;

    Scope(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    public static Scope fromCode(int code) {
      for (Scope scope : values()) {
        if (scope.code == code) {
          return scope;
        }
      }
      throw new IllegalArgumentException("unknown ACL entry scope code " + code);
    }
  }

  /** The entry's kind, in HDFS's order. */
  public enum Type {
    USER(0), GROUP(1), MASK(2), OTHER(3);

    private final int code;

    Type(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    public static Type fromCode(int code) {
      for (Type type : values()) {
        if (type.code == code) {
          return type;
        }
      }
      throw new IllegalArgumentException("unknown ACL entry type code " + code);
    }
  }

  public InodeAclEntry {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(type, "type");
    if (position < 0) {
      throw new IllegalArgumentException("negative ACL entry position " + position + " for inode " + inodeId);
    }
    if (permission < 0 || permission > 7) {
      throw new IllegalArgumentException("ACL entry permission " + permission + " is not rwx bits (0..7)");
    }
  }
}
