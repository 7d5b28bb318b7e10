package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.ResolvedPath;
import io.canopy.namenode.tx.TransactionContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS's checks on a resolved path, with its exception classes and messages.
 *
 * <p>A file among the ancestors: only the operations that create the path (create, mkdirs, the destination of a
 * rename) get HDFS's ParentNotDirectoryException; every other one gets it as an AccessControlException with the same
 * message (HDFS's FSDirectory.resolvePath).
 *
 * <p>Symbolic links are resolved by the client, as in HDFS: a path that goes through a link answers
 * {@link UnresolvedPathException} (the path before the link, the rest after it and the link's target), and the
 * stock client's link resolver retries with the target substituted. A link before the last component always does
 * so; a link as the last component too, except for the operations that act on the link itself (HDFS's
 * {@code *_LINK} resolutions: getFileLinkInfo, getLinkTarget, delete, rename's source and destination,
 * createSymlink, getContentSummary, getStoragePolicy, getPreferredBlockSize), which use the {@code ...ToLink}
 * variants.
 */
final class PathChecks {
  private PathChecks() {
  }

  // ---- in HDFS's order for a caller ----
  //
  // HDFS walks a path from the root and checks at each ancestor that it is a directory, then that the caller may
  // traverse it: a directory the caller may not traverse is refused before a file below it is named (naming it would
  // tell that the file exists). The permission checker stops at the first ancestor that is not a directory, so it
  // runs first, only when the path has one (the common path costs nothing).

  /** {@link #checkTraverse(ResolvedPath)} after the caller's traverse check up to a file among the ancestors. */
  static void checkTraverse(TransactionContext context, ResolvedPath path, PermissionChecker permissions)
      throws IOException {
    traverseUpToAFile(context, path, permissions);
    checkTraverse(path);
  }

  /** {@link #checkTraverseToLink(ResolvedPath)} in HDFS's order for a caller. */
  static void checkTraverseToLink(TransactionContext context, ResolvedPath path, PermissionChecker permissions)
      throws IOException {
    traverseUpToAFile(context, path, permissions);
    checkTraverseToLink(path);
  }

  /** {@link #checkTraverseForCreate(ResolvedPath)} in HDFS's order for a caller. */
  static void checkTraverseForCreate(TransactionContext context, ResolvedPath path, PermissionChecker permissions)
      throws IOException {
    traverseUpToAFile(context, path, permissions);
    checkTraverseForCreate(path);
  }

  /** {@link #checkTraverseForCreateToLink(ResolvedPath)} in HDFS's order for a caller. */
  static void checkTraverseForCreateToLink(TransactionContext context, ResolvedPath path,
      PermissionChecker permissions) throws IOException {
    traverseUpToAFile(context, path, permissions);
    checkTraverseForCreateToLink(path);
  }

  private static void traverseUpToAFile(TransactionContext context, ResolvedPath path, PermissionChecker permissions)
      throws IOException {
    if (deepestAncestorNotDirectory(path) != null) {
      permissions.checkTraverse(context, path);
    }
  }

  // ---- the path alone ----

  /** Every ancestor must be a directory (AccessControlException), a link as the last component is resolved. */
  static void checkTraverse(ResolvedPath path) throws AccessControlException, UnresolvedPathException {
    checkTraverseToLink(path);
    resolveLastLink(path);
  }

  /** As {@link #checkTraverse}, but a link as the last component is the operation's target, not resolved. */
  static void checkTraverseToLink(ResolvedPath path) throws AccessControlException, UnresolvedPathException {
    String refusal = traversalRefusal(path);
    if (refusal != null) {
      throw new AccessControlException(refusal);
    }
  }

  /** {@link #checkTraverse} for an operation creating the path: ParentNotDirectoryException. */
  static void checkTraverseForCreate(ResolvedPath path) throws ParentNotDirectoryException, UnresolvedPathException {
    checkTraverseForCreateToLink(path);
    resolveLastLink(path);
  }

  /** {@link #checkTraverseForCreate} where a link as the last component is the target (a rename's destination). */
  static void checkTraverseForCreateToLink(ResolvedPath path) throws ParentNotDirectoryException,
      UnresolvedPathException {
    String refusal = traversalRefusal(path);
    if (refusal != null) {
      throw new ParentNotDirectoryException(refusal);
    }
  }

  /**
   * HDFS's getFileInfo family (getFileInfo, getFileLinkInfo, getLocatedFileInfo) answers the superuser, and everyone
   * with checking off, "no such file" (null) for a path under a file, which the FileSystem contract (exists(),
   * getFileStatus's FileNotFoundException) expects; other callers get the AccessControlException of checkTraverse.
   */
  static boolean absentUnderAFile(ResolvedPath path, PermissionChecker permissions) {
    return traversesFile(path) && !permissions.checksAccess();
  }

  /** True when a component before the last is a file (the path can then not exist); links are not files here. */
  private static boolean traversesFile(ResolvedPath path) {
    Inode deepest = deepestAncestorNotDirectory(path);
    return deepest != null && !deepest.isSymlink();
  }

  private static void resolveLastLink(ResolvedPath path) throws UnresolvedPathException {
    Inode target = path.target();
    if (target != null && target.isSymlink()) {
      throw unresolved(path.path(), path.path().depth(), target);
    }
  }

  /**
   * HDFS's message for a file among the ancestors, or null when every existing ancestor is a directory; a link among
   * them is answered with the client's resolution.
   */
  private static String traversalRefusal(ResolvedPath path) throws UnresolvedPathException {
    Inode deepest = deepestAncestorNotDirectory(path);
    if (deepest == null) {
      return null;
    }
    if (deepest.isSymlink()) {
      throw unresolved(path.path(), path.existingCount() - 1, deepest);
    }
    return path.deepestExistingPath() + " (is not a directory)";
  }

  /** The deepest existing inode when it is an ancestor of the target that is not a directory, else null. */
  private static Inode deepestAncestorNotDirectory(ResolvedPath path) {
    int depth = path.path().depth();
    int existing = path.existingCount();
    if (existing <= depth && existing >= 1) {
      Inode deepest = path.deepestExisting();
      if (!deepest.directory()) {
        return deepest;
      }
    }
    return null;
  }

  /** The target (a link resolved by the client), or HDFS's FileNotFoundException. */
  static Inode requireTarget(ResolvedPath path) throws IOException {
    checkTraverse(path);
    return existing(path);
  }

  /** The target, a link itself included, or HDFS's FileNotFoundException. */
  static Inode requireTargetOrLink(ResolvedPath path) throws IOException {
    checkTraverseToLink(path);
    return existing(path);
  }

  private static Inode existing(ResolvedPath path) throws FileNotFoundException {
    Inode target = path.target();
    if (target == null) {
      throw new FileNotFoundException("File does not exist: " + path.path());
    }
    return target;
  }

  static Inode requireFile(ResolvedPath path) throws IOException {
    Inode target = requireTarget(path);
    if (target.directory()) {
      throw new FileNotFoundException("Path is not a file: " + path.path());
    }
    return target;
  }

  /**
   * HDFS's answer for the link at {@code linkDepth} of {@code path}: the preceding path (absolute), the remainder
   * after the link (relative, empty when the link is the last component) and the link's target. Its message, the
   * path with the link replaced by its target, is what getLinkTarget answers for a link before the last component.
   */
  static UnresolvedPathException unresolved(FsPath path, int linkDepth, Inode link) {
    List<String> names = path.components();
    String remainder = String.join("/", names.subList(linkDepth, names.size()));
    return new UnresolvedPathException(path.toString(), path.ancestor(linkDepth - 1).toString(), remainder,
        link.symlinkTarget());
  }
}
