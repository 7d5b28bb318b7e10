package io.canopy.namenode.permission;

import io.canopy.metadata.StoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.entity.InodeAclEntry;
import io.canopy.namenode.fs.Caller;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.ModeBits;
import io.canopy.namenode.fs.PermissionSettings;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS's permission checks for one call, on the rows the operation read for its locks (no other read, except the
 * ACL entries of inodes whose ACL bit is set): execute on every existing ancestor, the access an operation needs on
 * the deepest existing ancestor, the parent, the target or a whole subtree, the sticky bit, ownership and the
 * superuser. The superuser (the namenode's user, or a member of the superuser group) passes every check. With
 * {@code dfs.permissions.enabled=false} the access checks pass too, but, as in HDFS, ownership is still checked
 * ({@link #checkOwner}: chmod, chown, chgrp and the ACL calls) and chown stays the superuser's.
 *
 * <p>Errors are HDFS's {@link AccessControlException}s with its messages, e.g.
 * {@code Permission denied: user=bob, access=WRITE, inode="/dir":alice:supergroup:drwxr-xr-x}.
 */
public final class PermissionChecker {
  private final PermissionSettings settings;
  private final Caller caller;
  private final boolean superuser;

  private PermissionChecker(PermissionSettings settings, Caller caller) {
    this.settings = settings;
    this.caller = caller;
    // the process user needs no group lookup; anyone else is a superuser through the superuser group
    this.superuser = caller.user().equals(settings.superuser()) || caller.isMemberOf(settings.superGroup());
  }

  /** The checker of one call by {@code caller}. */
  public static PermissionChecker of(PermissionSettings settings, Caller caller) {
    return new PermissionChecker(settings, caller);
  }

  /** The namenode acting on its own behalf (lease recovery, a read for a call already checked): the superuser. */
  public static PermissionChecker internal(PermissionSettings settings) {
    return new PermissionChecker(settings, settings.namenode());
  }

  public Caller caller() {
    return caller;
  }

  public String user() {
    return caller.user();
  }

  public boolean isSuperuser() {
    return superuser;
  }

  public PermissionSettings settings() {
    return settings;
  }

  /**
   * Whether access checks apply to this caller (checking is on and the caller is not the superuser): an operation
   * that reads a subtree only to check it (getQuotaUsage of a directory with a quota) skips the read otherwise.
   */
  public boolean checksAccess() {
    return checking();
  }

  /** Whether access checks apply to this caller: checking is on and the caller is not the superuser. */
  private boolean checking() {
    return settings.enabled() && !superuser;
  }

  // ---- HDFS's entry points (FSDirectory's checkTraverse, checkAncestorAccess, ...) ----

  /** Execute on every existing proper ancestor of the path (every call that resolves a path). */
  public void checkTraverse(TransactionContext context, ResolvedPath path) throws AccessControlException,
      StoreException {
    if (checking()) {
      check(context, path, false, null, null, null);
    }
  }

  /** {@code access} on the deepest existing proper ancestor (create, mkdirs, a rename's destination). */
  public void checkAncestorAccess(TransactionContext context, ResolvedPath path, FsAction access)
      throws AccessControlException, StoreException {
    if (checking()) {
      check(context, path, false, access, null, null);
    }
  }

  /**
   * {@code access} on the parent (delete, a rename's source), and, when it includes write and the target exists,
   * the parent's sticky bit.
   */
  public void checkParentAccess(TransactionContext context, ResolvedPath path, FsAction access)
      throws AccessControlException, StoreException {
    if (checking()) {
      check(context, path, false, null, access, null);
    }
  }

  /** {@code access} on the target when it exists (open, listing, setTimes, setReplication, overwrite). */
  public void checkPathAccess(TransactionContext context, ResolvedPath path, FsAction access)
      throws AccessControlException, StoreException {
    if (checking()) {
      check(context, path, false, null, null, access);
    }
  }

  /**
   * The caller owns the (existing) target, after the traverse check: chmod, chown, chgrp and the ACL calls. As in
   * HDFS this applies even with permission checking off; only the superuser passes.
   */
  public void checkOwner(TransactionContext context, ResolvedPath path) throws AccessControlException,
      StoreException {
    if (!superuser) {
      check(context, path, true, null, null, null);
    }
  }

  /**
   * HDFS's subAccess (a recursive delete needs all access to the whole subtree): {@code access} on {@code root} and
   * every directory below it that is not empty ({@code ignoreEmpty}) or every one, and in a sticky directory each
   * child must belong to the caller or the directory must. {@code subtree} is root first, parents before children,
   * as {@link TransactionContext#subtree} reads it.
   */
  public void checkSubtreeAccess(TransactionContext context, FsPath rootPath, List<Inode> subtree, FsAction access,
      boolean ignoreEmpty) throws AccessControlException, StoreException {
    checkSubtreeAccess(context, () -> rootPath, subtree, access, ignoreEmpty);
  }

  /**
   * {@link #checkSubtreeAccess(TransactionContext, FsPath, List, FsAction, boolean)} with the root's path built only
   * for a refusal's message (the subtree protocol works far below paths it does not keep, design 017).
   */
  public void checkSubtreeAccess(TransactionContext context, Supplier<FsPath> rootPath, List<Inode> subtree,
      FsAction access, boolean ignoreEmpty) throws AccessControlException, StoreException {
    if (checking()) {
      checkDirectories(context, rootPath, subtree, access, ignoreEmpty, true);
    }
  }

  /** {@code access} on every directory of {@code subtree}, as a content summary checks each directory it counts. */
  public void checkEveryDirectory(TransactionContext context, FsPath rootPath, List<Inode> subtree, FsAction access)
      throws AccessControlException, StoreException {
    if (checking()) {
      checkDirectories(context, () -> rootPath, subtree, access, false, false);
    }
  }

  /**
   * Linear in the subtree's size whatever its depth: paths are built only for the message of a refusal, by walking
   * up from the refused directory (a path kept per directory was quadratic in depth: a deep tree ran the namenode
   * out of memory).
   */
  private void checkDirectories(TransactionContext context, Supplier<FsPath> rootPath, List<Inode> subtree,
      FsAction access, boolean ignoreEmpty, boolean sticky) throws AccessControlException, StoreException {
    if (subtree.isEmpty() || !subtree.get(0).directory()) {
      return;
    }
    Inode root = subtree.get(0);
    Map<Long, Inode> directories = new LinkedHashMap<>(); // in the subtree's order: parents first
    Map<Long, List<Inode>> children = new HashMap<>();
    directories.put(root.id(), root);
    for (Inode inode : subtree) {
      if (inode != root && directories.containsKey(inode.parentId())) {
        children.computeIfAbsent(inode.parentId(), id -> new ArrayList<>()).add(inode);
        if (inode.directory()) {
          directories.put(inode.id(), inode);
        }
      }
    }
    // one round trip, only if some have an ACL
    Map<Long, List<AclEntry>> acls = aclsOf(context, new ArrayList<>(directories.values()));
    for (Inode directory : directories.values()) {
      List<Inode> contents = children.getOrDefault(directory.id(), List.of());
      if (contents.isEmpty() && ignoreEmpty) {
        continue;
      }
      if (!permits(directory, acls.get(directory.id()), access)) {
        throw denied(directory, pathOf(directory, root, rootPath, directories), access);
      }
      if (sticky && ModeBits.permission(directory.permission()).getStickyBit()) {
        for (Inode child : contents) {
          if (stickyForbids(directory, child)) {
            FsPath path = pathOf(directory, root, rootPath, directories);
            throw stickyDenied(child, path.child(child.name()), directory, path);
          }
        }
      }
    }
  }

  /** The path of {@code directory}, a directory of the subtree under {@code root} (at {@code rootPath}). */
  private static FsPath pathOf(Inode directory, Inode root, Supplier<FsPath> rootPath,
      Map<Long, Inode> directories) {
    List<String> names = new ArrayList<>();
    for (Inode inode = directory; inode != root; inode = directories.get(inode.parentId())) {
      names.add(inode.name());
    }
    FsPath path = rootPath.get();
    for (int i = names.size() - 1; i >= 0; i--) {
      path = path.child(names.get(i)); // only for a refusal's message
    }
    return path;
  }

  /**
   * The superuser's privilege, when permission checking is on (datanode reports, safe mode actions, quotas):
   * HDFS's message names the operation.
   */
  public void checkSuperuser(String operation) throws AccessControlException {
    if (settings.enabled() && !superuser) {
      throw new AccessControlException("Access denied for user " + user() + ". Superuser privilege is required for "
          + "operation " + operation);
    }
  }

  /**
   * chown and chgrp after {@link #checkOwner}: only the superuser gives a file away or gives it a group it is not
   * in; the owner may change the group to one of its own (HDFS's messages). Applies with checking off too.
   */
  public void checkOwnershipChange(String newOwner, String newGroup) throws AccessControlException {
    if (superuser) {
      return;
    }
    if (newOwner != null && !newOwner.equals(user())) {
      throw new AccessControlException("User " + user() + " is not a super user (non-super user cannot change "
          + "owner).");
    }
    if (newGroup != null && !caller.isMemberOf(newGroup)) {
      throw new AccessControlException("User " + user() + " does not belong to " + newGroup);
    }
  }

  // ---- the check itself (HDFS's FSPermissionChecker.checkPermission) ----

  /**
   * In HDFS's order: execute on the existing proper ancestors, the sticky bit (parent write on an existing target),
   * the ancestor, parent and target accesses, then ownership. A missing inode passes its check (the operation then
   * reports the path missing).
   */
  private void check(TransactionContext context, ResolvedPath path, boolean owner, FsAction ancestorAccess,
      FsAction parentAccess, FsAction access) throws AccessControlException, StoreException {
    int last = path.path().depth();
    int ancestor = Math.min(path.existingCount() - 1, last - 1);
    List<Inode> existing = new ArrayList<>();
    for (int depth = 0; depth < path.existingCount(); depth++) {
      existing.add(path.at(depth));
    }
    Map<Long, List<AclEntry>> acls = aclsOf(context, existing);
    for (int depth = 0; depth <= ancestor; depth++) {
      Inode inode = path.at(depth);
      if (!inode.directory()) {
        return; // a file on the way: the operation's own traverse check names it (ParentNotDirectoryException)
      }
      // the ancestor's path only for a refusal: building each one would be quadratic in the depth
      if (!permits(inode, acls.get(inode.id()), FsAction.EXECUTE)) {
        throw denied(inode, path.path().ancestor(depth), FsAction.EXECUTE);
      }
    }
    Inode target = path.at(last);
    Inode parent = last >= 1 ? path.at(last - 1) : null;
    if (parentAccess != null && parentAccess.implies(FsAction.WRITE) && parent != null && target != null
        && ModeBits.permission(parent.permission()).getStickyBit() && stickyForbids(parent, target)) {
      throw stickyDenied(target, path.path(), parent, path.path().ancestor(last - 1));
    }
    if (ancestorAccess != null && last >= 1 && ancestor >= 0) {
      require(path.at(ancestor), acls, path.path().ancestor(ancestor), ancestorAccess);
    }
    if (parentAccess != null && parent != null) {
      require(parent, acls, path.path().ancestor(last - 1), parentAccess);
    }
    if (access != null && target != null) {
      require(target, acls, path.path(), access);
    }
    if (owner && target != null && !user().equals(target.owner())) {
      throw new AccessControlException("Permission denied. user=" + user() + " is not the owner of inode="
          + path.path());
    }
  }

  private void require(Inode inode, Map<Long, List<AclEntry>> acls, FsPath path, FsAction access)
      throws AccessControlException {
    if (!permits(inode, acls.get(inode.id()), access)) {
      throw denied(inode, path, access);
    }
  }

  /** The stored ACL entries (as Hadoop entries) of those inodes that have an ACL. */
  private static Map<Long, List<AclEntry>> aclsOf(TransactionContext context, List<Inode> inodes)
      throws StoreException {
    Map<Long, List<AclEntry>> result = new HashMap<>();
    for (Map.Entry<Long, List<InodeAclEntry>> entry : context.acls(inodes).entrySet()) {
      result.put(entry.getKey(), InodeAcls.entries(entry.getValue()));
    }
    return result;
  }

  /**
   * Whether the caller has {@code access} to {@code inode}: the owner, group or other bits, or, when the inode has
   * an access ACL, POSIX ACL evaluation (HDFS's hasPermission / hasAclPermission).
   */
  boolean permits(Inode inode, List<AclEntry> storedAcl, FsAction access) {
    FsPermission mode = ModeBits.permission(inode.permission());
    if (storedAcl != null && !storedAcl.isEmpty() && storedAcl.get(0).getScope() == AclEntryScope.ACCESS) {
      return aclPermits(inode, mode, storedAcl, access);
    }
    FsAction granted;
    if (user().equals(inode.owner())) {
      granted = mode.getUserAction();
    } else if (caller.isMemberOf(inode.group())) {
      granted = mode.getGroupAction();
    } else {
      granted = mode.getOtherAction();
    }
    return granted.implies(access);
  }

  /**
   * POSIX ACL evaluation: the owner gets the owner bits; else the first named user entry naming the caller decides
   * (masked); else any matching group entry (unnamed: the file's group) that grants the access does (masked), and
   * a matching group that does not grant it denies; else the other bits. The mask is the group bits.
   */
  private boolean aclPermits(Inode inode, FsPermission mode, List<AclEntry> storedAcl, FsAction access) {
    if (user().equals(inode.owner())) {
      return mode.getUserAction().implies(access);
    }
    FsAction mask = mode.getGroupAction();
    boolean groupMatched = false;
    for (AclEntry entry : storedAcl) {
      if (entry.getScope() != AclEntryScope.ACCESS) {
        break; // default entries come last and are never enforced
      }
      if (entry.getType() == AclEntryType.USER && user().equals(entry.getName())) {
        return entry.getPermission().and(mask).implies(access);
      }
      if (entry.getType() == AclEntryType.GROUP
          && caller.isMemberOf(entry.getName() == null ? inode.group() : entry.getName())) {
        if (entry.getPermission().and(mask).implies(access)) {
          return true;
        }
        groupMatched = true;
      }
    }
    return !groupMatched && mode.getOtherAction().implies(access);
  }

  /** In a sticky directory only the directory's owner and the child's owner may remove or rename the child. */
  private boolean stickyForbids(Inode directory, Inode child) {
    return !user().equals(directory.owner()) && !user().equals(child.owner());
  }

  private AccessControlException denied(Inode inode, FsPath path, FsAction access) {
    return new AccessControlException("Permission denied: user=" + user() + ", access=" + access + ", inode=\""
        + path + "\":" + describe(inode));
  }

  private AccessControlException stickyDenied(Inode inode, FsPath path, Inode parent, FsPath parentPath) {
    return new AccessControlException("Permission denied by sticky bit: user=" + user() + ", path=\"" + path
        + "\":" + describe(inode) + ", parent=\"" + parentPath + "\":" + describe(parent));
  }

  /** owner:group:drwxr-xr-x, as HDFS prints an inode in permission errors. */
  private static String describe(Inode inode) {
    return inode.owner() + ":" + inode.group() + ":" + (inode.directory() ? 'd' : '-')
        + ModeBits.permission(inode.permission());
  }
}
