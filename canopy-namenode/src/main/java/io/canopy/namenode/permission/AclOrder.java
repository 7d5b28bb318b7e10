package io.canopy.namenode.permission;

import java.util.Comparator;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;

/**
 * HDFS's order of ACL entries, which every stored and returned ACL keeps: access before default, then user, group,
 * mask, other, then the unnamed entry before the named ones, by name. Two entries comparing equal have the same key
 * (scope, type, name), whatever their permissions.
 */
final class AclOrder {
  static final Comparator<AclEntry> ENTRIES = Comparator
      .comparing((AclEntry e) -> e.getScope() == AclEntryScope.ACCESS ? 0 : 1)
      .thenComparing(e -> typeRank(e.getType()))
      .thenComparing(AclEntry::getName, Comparator.nullsFirst(Comparator.naturalOrder()));

  private AclOrder() {
  }

  private static int typeRank(AclEntryType type) {
    return switch (type) {
      case USER -> 0;
      case GROUP -> 1;
      case MASK -> 2;
      case OTHER -> 3;
    };
  }

  static boolean sameKey(AclEntry a, AclEntry b) {
    return ENTRIES.compare(a, b) == 0;
  }
}
