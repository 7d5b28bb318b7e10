package io.canopy.namenode.permission;

import io.canopy.namenode.fs.StorableText;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * The ACL changes of the ACL calls, with HDFS's rules and messages: each takes an inode's full ACL (sorted, see
 * {@link InodeAcls#logical}) and an ACL spec, and returns the new full ACL, sorted and valid. A mask the caller did
 * not give is recalculated (the union of the group-class entries) when the scope has named entries or had a mask;
 * a default ACL missing its owner, group or other entry gets it copied from the access ACL.
 */
public final class AclEditor {
  /** Entries per scope, as in HDFS. */
  static final int MAX_ENTRIES = 32;

  private AclEditor() {
  }

  /** What is being built: the entries other than masks, and the masks given or kept, per scope. */
  private static final class Draft {
    final List<AclEntry> entries = new ArrayList<>();
    final Map<AclEntryScope, AclEntry> masks = new EnumMap<>(AclEntryScope.class);
    /** Scopes the spec touched. */
    final Set<AclEntryScope> changed = EnumSet.noneOf(AclEntryScope.class);
    /** Scopes whose mask the spec set or removed. */
    final Set<AclEntryScope> maskChanged = EnumSet.noneOf(AclEntryScope.class);

    void keep(AclEntry entry) {
      if (entry.getType() == AclEntryType.MASK) {
        masks.put(entry.getScope(), entry);
      } else {
        entries.add(entry);
      }
    }

    void set(AclEntry entry) {
      changed.add(entry.getScope());
      if (entry.getType() == AclEntryType.MASK) {
        masks.put(entry.getScope(), entry);
        maskChanged.add(entry.getScope());
      } else {
        entries.add(entry);
      }
    }
  }

  /** modifyAclEntries: the spec's entries replace those with the same key, the others are added. */
  public static List<AclEntry> merge(List<AclEntry> existing, List<AclEntry> spec) throws AclException {
    List<AclEntry> sortedSpec = validatedSpec(spec);
    Draft draft = new Draft();
    for (AclEntry entry : existing) {
      AclEntry replacement = find(sortedSpec, entry);
      if (replacement != null) {
        draft.set(replacement);
      } else {
        draft.keep(entry);
      }
    }
    for (AclEntry entry : sortedSpec) {
      if (find(existing, entry) == null) { // new keys; a key given twice is then refused as a duplicate
        draft.set(entry);
      }
    }
    return finish(draft);
  }

  /** removeAclEntries: the entries whose keys the spec names go (permissions in the spec are ignored). */
  public static List<AclEntry> remove(List<AclEntry> existing, List<AclEntry> spec) throws AclException {
    List<AclEntry> sortedSpec = validatedSpec(spec);
    Draft draft = new Draft();
    for (AclEntry entry : existing) {
      if (find(sortedSpec, entry) != null) {
        draft.changed.add(entry.getScope());
        if (entry.getType() == AclEntryType.MASK) {
          draft.maskChanged.add(entry.getScope());
        }
      } else {
        draft.keep(entry);
      }
    }
    return finish(draft);
  }

  /** removeDefaultAcl: the access entries only, as they are. */
  public static List<AclEntry> removeDefault(List<AclEntry> existing) throws AclException {
    List<AclEntry> access = new ArrayList<>();
    for (AclEntry entry : existing) {
      if (entry.getScope() == AclEntryScope.ACCESS) {
        access.add(entry);
      }
    }
    return validated(access);
  }

  /** setAcl: each scope the spec names is replaced by the spec's entries; a scope it does not name is kept. */
  public static List<AclEntry> replace(List<AclEntry> existing, List<AclEntry> spec) throws AclException {
    List<AclEntry> sortedSpec = validatedSpec(spec);
    Draft draft = new Draft();
    for (AclEntry entry : sortedSpec) {
      draft.set(entry);
    }
    for (AclEntry entry : existing) {
      if (!draft.changed.contains(entry.getScope())) {
        draft.keep(entry);
      }
    }
    return finish(draft);
  }

  private static List<AclEntry> finish(Draft draft) throws AclException {
    copyDefaultBaseEntries(draft.entries);
    addMasks(draft);
    return validated(draft.entries);
  }

  /** A default ACL lacking its owner, group or other entry takes the access ACL's (HDFS's copyDefaultsIfNeeded). */
  private static void copyDefaultBaseEntries(List<AclEntry> entries) {
    boolean hasDefault = entries.stream().anyMatch(e -> e.getScope() == AclEntryScope.DEFAULT);
    if (!hasDefault) {
      return;
    }
    List<AclEntry> copies = new ArrayList<>(3);
    for (AclEntryType type : List.of(AclEntryType.USER, AclEntryType.GROUP, AclEntryType.OTHER)) {
      if (unnamed(entries, AclEntryScope.DEFAULT, type) == null) {
        AclEntry access = unnamed(entries, AclEntryScope.ACCESS, type);
        if (access != null) {
          copies.add(new AclEntry.Builder().setScope(AclEntryScope.DEFAULT).setType(type)
              .setPermission(access.getPermission()).build());
        }
      }
    }
    entries.addAll(copies);
  }

  /** HDFS's calculateMasks: keep, take or recalculate each scope's mask, or refuse to lose a needed one. */
  private static void addMasks(Draft draft) throws AclException {
    Set<AclEntryScope> present = EnumSet.noneOf(AclEntryScope.class);
    Set<AclEntryScope> needMask = EnumSet.noneOf(AclEntryScope.class);
    Map<AclEntryScope, FsAction> groupClass = new EnumMap<>(AclEntryScope.class);
    for (AclEntry entry : draft.entries) {
      present.add(entry.getScope());
      if (entry.getType() == AclEntryType.GROUP || entry.getName() != null) {
        groupClass.merge(entry.getScope(), entry.getPermission(), FsAction::or);
      }
      if (entry.getName() != null) {
        needMask.add(entry.getScope());
      }
    }
    for (AclEntryScope scope : present) {
      AclEntry given = draft.masks.get(scope);
      if (given == null && needMask.contains(scope) && draft.maskChanged.contains(scope)) {
        throw new AclException("Invalid ACL: mask is required and cannot be deleted.");
      } else if (given != null && (!draft.changed.contains(scope) || draft.maskChanged.contains(scope))) {
        draft.entries.add(given); // set by the caller, or kept in a scope the spec did not touch
      } else if (needMask.contains(scope) || given != null) {
        draft.entries.add(new AclEntry.Builder().setScope(scope).setType(AclEntryType.MASK)
            .setPermission(groupClass.getOrDefault(scope, FsAction.NONE)).build());
      }
    }
  }

  /** Sorts and checks a whole ACL: unique keys, no named mask or other, size, and the base entries of each scope. */
  private static List<AclEntry> validated(List<AclEntry> entries) throws AclException {
    List<AclEntry> acl = new ArrayList<>(entries);
    acl.sort(AclOrder.ENTRIES);
    AclEntry previous = null;
    for (AclEntry entry : acl) {
      if (previous != null && AclOrder.sameKey(previous, entry)) {
        throw new AclException("Invalid ACL: multiple entries with same scope, type and name.");
      }
      if (entry.getName() != null && (entry.getType() == AclEntryType.MASK
          || entry.getType() == AclEntryType.OTHER)) {
        throw new AclException("Invalid ACL: this entry type must not have a name: " + entry + ".");
      }
      previous = entry;
    }
    checkSize(acl);
    boolean hasDefault = acl.stream().anyMatch(e -> e.getScope() == AclEntryScope.DEFAULT);
    for (AclEntryType type : List.of(AclEntryType.USER, AclEntryType.GROUP, AclEntryType.OTHER)) {
      if (unnamed(acl, AclEntryScope.ACCESS, type) == null) {
        throw new AclException("Invalid ACL: the user, group and other entries are required.");
      }
      if (hasDefault && unnamed(acl, AclEntryScope.DEFAULT, type) == null) {
        throw new AclException("Invalid default ACL: the user, group and other entries are required.");
      }
    }
    return List.copyOf(acl);
  }

  private static List<AclEntry> validatedSpec(List<AclEntry> spec) throws AclException {
    for (AclEntry entry : spec) {
      String unstorable = StorableText.problem(entry.getName()); // HDFS takes any name; the database cannot
      if (unstorable != null) {
        throw new AclException("Invalid ACL: the name of entry " + StorableText.shown(entry.toString()) + " "
            + unstorable + ".");
      }
    }
    List<AclEntry> sorted = new ArrayList<>(spec);
    sorted.sort(AclOrder.ENTRIES);
    checkSize(sorted);
    return sorted;
  }

  private static void checkSize(List<AclEntry> entries) throws AclException {
    long access = entries.stream().filter(e -> e.getScope() == AclEntryScope.ACCESS).count();
    long defaults = entries.size() - access;
    if (access > MAX_ENTRIES) {
      throw new AclException("Invalid ACL: ACL has " + access + " access entries, which exceeds maximum of "
          + MAX_ENTRIES + ".");
    }
    if (defaults > MAX_ENTRIES) {
      throw new AclException("Invalid ACL: ACL has " + defaults + " default entries, which exceeds maximum of "
          + MAX_ENTRIES + ".");
    }
  }

  private static AclEntry find(List<AclEntry> entries, AclEntry key) {
    for (AclEntry entry : entries) {
      if (AclOrder.sameKey(entry, key)) {
        return entry;
      }
    }
    return null;
  }

  private static AclEntry unnamed(List<AclEntry> entries, AclEntryScope scope, AclEntryType type) {
    for (AclEntry entry : entries) {
      if (entry.getScope() == scope && entry.getType() == type && entry.getName() == null) {
        return entry;
      }
    }
    return null;
  }
}
