package io.canopy.namenode.ops;

import io.canopy.metadata.entity.Inode;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.tx.ResolvedPath;
import java.io.FileNotFoundException;
import java.util.List;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;

/**
 * HDFS's checks on a resolved path, with its exception classes and messages.
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

  /**
   * Every component before the last must be a directory: a link there is resolved by the client, a file is HDFS's
   * ParentNotDirectoryException. A link as the last component is resolved by the client too.
   */
  static void checkTraverse(ResolvedPath path) throws ParentNotDirectoryException, UnresolvedPathException {
    checkTraverseToLink(path);
    Inode target = path.target();
    if (target != null && target.isSymlink()) {
      throw unresolved(path.path(), path.path().depth(), target);
    }
  }

  /** As {@link #checkTraverse}, but a link as the last component is the operation's target, not resolved. */
  static void checkTraverseToLink(ResolvedPath path) throws ParentNotDirectoryException, UnresolvedPathException {
    int depth = path.path().depth();
    int existing = path.existingCount();
    if (existing <= depth && existing >= 1) {
      Inode deepest = path.deepestExisting();
      if (!deepest.directory()) {
        if (deepest.isSymlink()) {
          throw unresolved(path.path(), existing - 1, deepest);
        }
        throw new ParentNotDirectoryException(path.deepestExistingPath() + " (is not a directory)");
      }
    }
  }

  /** The target (a link resolved by the client), or HDFS's FileNotFoundException. */
  static Inode requireTarget(ResolvedPath path) throws FileNotFoundException, ParentNotDirectoryException,
      UnresolvedPathException {
    checkTraverse(path);
    return existing(path);
  }

  /** The target, a link itself included, or HDFS's FileNotFoundException. */
  static Inode requireTargetOrLink(ResolvedPath path) throws FileNotFoundException, ParentNotDirectoryException,
      UnresolvedPathException {
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

  static Inode requireFile(ResolvedPath path) throws FileNotFoundException, ParentNotDirectoryException,
      UnresolvedPathException {
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
