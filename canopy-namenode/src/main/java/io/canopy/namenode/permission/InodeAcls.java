package io.canopy.namenode.permission;

import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.namenode.fs.ModeBits;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * How an inode's POSIX ACL is split between its permission bits and its ACL rows, as HDFS splits it between the
 * mode and the ACL feature: the owner, mask (or, without a mask, group) and other entries of the access ACL are the
 * mode's user, group and other bits; the rows hold the rest of the access ACL (named users, the unnamed group,
 * named groups) and the whole default ACL, in {@link AclOrder}. An inode has rows exactly when its ACL is not the
 * minimal one the mode alone expresses, and then carries {@link ModeBits#ACL_BIT}.
 */
public final class InodeAcls {
  /** An inode's permission column value and ACL rows (as Hadoop entries) after a change. */
  public record Stored(short permission, List<AclEntry> entries) {
  }

  private InodeAcls() {
  }

  // ---- conversion between rows and entries ----

  public static List<AclEntry> entries(List<InodeAclEntry> rows) {
    List<AclEntry> entries = new ArrayList<>(rows.size());
    for (InodeAclEntry row : rows) {
      entries.add(new AclEntry.Builder()
          .setScope(row.scope() == InodeAclEntry.Scope.ACCESS ? AclEntryScope.ACCESS : AclEntryScope.DEFAULT)
          .setType(switch (row.type()) {
            case USER -> AclEntryType.USER;
            case GROUP -> AclEntryType.GROUP;
            case MASK -> AclEntryType.MASK;
            case OTHER -> AclEntryType.OTHER;
          })
          .setName(row.name())
          .setPermission(FsAction.values()[row.permission()])
          .build());
    }
    return entries;
  }

  public static List<InodeAclEntry> rows(long inodeId, List<AclEntry> entries) {
    List<InodeAclEntry> rows = new ArrayList<>(entries.size());
    for (AclEntry entry : entries) {
      rows.add(new InodeAclEntry(inodeId, rows.size(),
          entry.getScope() == AclEntryScope.ACCESS ? InodeAclEntry.Scope.ACCESS : InodeAclEntry.Scope.DEFAULT,
          switch (entry.getType()) {
            case USER -> InodeAclEntry.Type.USER;
            case GROUP -> InodeAclEntry.Type.GROUP;
            case MASK -> InodeAclEntry.Type.MASK;
            case OTHER -> InodeAclEntry.Type.OTHER;
          }, entry.getName(), entry.getPermission().ordinal()));
    }
    return rows;
  }

  // ---- the logical ACL ----

  /** The full ACL (access entries, then default ones) of an inode with {@code permission} and {@code stored} rows. */
  public static List<AclEntry> logical(short permission, List<AclEntry> stored) {
    FsPermission mode = ModeBits.permission(permission);
    List<AclEntry> access = scoped(stored, AclEntryScope.ACCESS);
    List<AclEntry> acl = new ArrayList<>(stored.size() + 3);
    if (access.isEmpty()) {
      acl.addAll(minimal(mode));
    } else {
      acl.add(entry(AclEntryScope.ACCESS, AclEntryType.USER, mode.getUserAction()));
      acl.addAll(access);
      acl.add(entry(AclEntryScope.ACCESS, AclEntryType.MASK, mode.getGroupAction()));
      acl.add(entry(AclEntryScope.ACCESS, AclEntryType.OTHER, mode.getOtherAction()));
    }
    acl.addAll(scoped(stored, AclEntryScope.DEFAULT));
    return acl;
  }

  /**
   * Splits a valid, sorted ACL into the inode's new permission (its sticky bit kept) and rows. A default ACL is
   * allowed on directories only (HDFS's message, naming {@code path}).
   */
  public static Stored store(short permission, boolean directory, String path, List<AclEntry> acl)
      throws AclException {
    boolean sticky = ModeBits.permission(permission).getStickyBit();
    if (acl.size() == 3) { // user, group, other: the mode says it all
      return new Stored(ModeBits.stored(mode(acl.get(0), acl.get(1), acl.get(2), sticky), false), List.of());
    }
    List<AclEntry> access = scoped(acl, AclEntryScope.ACCESS);
    List<AclEntry> defaults = scoped(acl, AclEntryScope.DEFAULT);
    if (!defaults.isEmpty() && !directory) {
      throw new AclException("Invalid ACL: only directories may have a default ACL. Path: " + path);
    }
    return extended(access, defaults, sticky);
  }

  /**
   * The inode after removing its whole ACL: no rows, and the group bits, which held the mask, get the unnamed group
   * entry's permission back (HDFS's removeAcl).
   */
  public static short withoutAcl(short permission, List<AclEntry> stored) {
    if (stored.isEmpty() || stored.get(0).getScope() != AclEntryScope.ACCESS) {
      return ModeBits.mode(permission);
    }
    FsPermission mode = ModeBits.permission(permission);
    FsAction group = null;
    for (AclEntry entry : stored) {
      if (entry.getScope() == AclEntryScope.ACCESS && entry.getType() == AclEntryType.GROUP
          && entry.getName() == null) {
        group = entry.getPermission();
      }
    }
    if (group == null) {
      throw new IllegalStateException("invariant: an access ACL without its unnamed group entry: " + stored);
    }
    return new FsPermission(mode.getUserAction(), group, mode.getOtherAction(), mode.getStickyBit()).toShort();
  }

  /**
   * A new child's permission and rows inherited from its parent's default ACL (HDFS's copyINodeDefaultAcl), or null
   * when the parent has no default ACL. {@code mode} is the child's requested mode: its owner, group and other bits
   * filter the copied owner, mask (or group, for a minimal default ACL) and other entries; a directory also gets
   * the parent's default ACL as its own.
   */
  public static Stored inherit(List<AclEntry> parentStored, FsPermission mode, boolean directory) {
    List<AclEntry> parentDefaults = scoped(parentStored, AclEntryScope.DEFAULT);
    if (parentDefaults.isEmpty()) {
      return null;
    }
    boolean minimalDefaults = parentDefaults.size() == 3;
    List<AclEntry> access = new ArrayList<>(parentDefaults.size());
    for (AclEntry entry : parentDefaults) {
      FsAction permission = entry.getPermission();
      if (entry.getType() == AclEntryType.USER && entry.getName() == null) {
        permission = permission.and(mode.getUserAction());
      } else if (entry.getType() == AclEntryType.MASK
          || entry.getType() == AclEntryType.GROUP && minimalDefaults) {
        permission = permission.and(mode.getGroupAction());
      } else if (entry.getType() == AclEntryType.OTHER) {
        permission = permission.and(mode.getOtherAction());
      }
      access.add(new AclEntry.Builder().setScope(AclEntryScope.ACCESS).setType(entry.getType())
          .setName(entry.getName()).setPermission(permission).build());
    }
    List<AclEntry> defaults = directory ? parentDefaults : List.of();
    if (access.size() == 3 && defaults.isEmpty()) {
      return new Stored(ModeBits.stored(mode(access.get(0), access.get(1), access.get(2), mode.getStickyBit()),
          false), List.of());
    }
    return extended(access, defaults, mode.getStickyBit());
  }

  /** Access entries in the mode (owner, mask or group, other) and the rest in rows; the ACL bit set. */
  private static Stored extended(List<AclEntry> access, List<AclEntry> defaults, boolean sticky) {
    List<AclEntry> rows = new ArrayList<>(access.size() - 3 + defaults.size());
    if (access.size() > 3) {
      rows.addAll(access.subList(1, access.size() - 2)); // named users, the group, named groups
    }
    rows.addAll(defaults);
    short mode = mode(access.get(0), access.get(access.size() - 2), access.get(access.size() - 1), sticky);
    return new Stored(ModeBits.stored(mode, true), List.copyOf(rows));
  }

  static List<AclEntry> scoped(List<AclEntry> entries, AclEntryScope scope) {
    List<AclEntry> result = new ArrayList<>();
    for (AclEntry entry : entries) {
      if (entry.getScope() == scope) {
        result.add(entry);
      }
    }
    return result;
  }

  static List<AclEntry> minimal(FsPermission mode) {
    return List.of(entry(AclEntryScope.ACCESS, AclEntryType.USER, mode.getUserAction()),
        entry(AclEntryScope.ACCESS, AclEntryType.GROUP, mode.getGroupAction()),
        entry(AclEntryScope.ACCESS, AclEntryType.OTHER, mode.getOtherAction()));
  }

  private static AclEntry entry(AclEntryScope scope, AclEntryType type, FsAction permission) {
    return new AclEntry.Builder().setScope(scope).setType(type).setPermission(permission).build();
  }

  private static short mode(AclEntry user, AclEntry group, AclEntry other, boolean sticky) {
    return new FsPermission(user.getPermission(), group.getPermission(), other.getPermission(), sticky).toShort();
  }
}
